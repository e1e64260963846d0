import { useEffect } from 'react';
import { DEFAULT_AVATAR, REVIEW_MESSAGES, tradeApi } from '@ruilplein/contracts/browser';
import { formatDate } from './format.ts';
import { EmptyState, Spinner } from './layout.tsx';
import { useApi } from './query.ts';
import { Link } from './router.ts';
import * as styles from './reviews.module.css';

const STAR = '12 2 15.09 8.26 22 9.27 17 14.14 18.18 21.02 12 17.77 5.82 21.02 7 14.14 2 9.27 8.91 8.26';
// The star is symmetric about x = 12: its left half.
const LEFT_HALF = '12 2 12 17.77 5.82 21.02 7 14.14 2 9.27 8.91 8.26';
const number = new Intl.NumberFormat('nl-NL', { maximumFractionDigits: 1 });

/** A rating shown as five stars, whole or half filled (reviews are 1 to 5 stars in half steps). */
function Stars({ rating }: { rating: number }) {
  const rounded = Math.round(rating * 2) / 2;
  return (
    <span className={styles.stars} role="img" aria-label={`${number.format(rounded)} van 5 sterren`}>
      {[1, 2, 3, 4, 5].map((n) => {
        const fill = rounded >= n ? 'whole' : rounded >= n - 0.5 ? 'half' : 'none';
        return (
          <svg key={n} className={styles.star} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <polygon className={fill === 'whole' ? styles.filled : styles.empty} points={STAR} />
            {fill === 'half' && <polygon className={styles.filled} points={LEFT_HALF} />}
          </svg>
        );
      })}
    </span>
  );
}

/**
 * The reviews a member received, on their public profile (spec 2 §2) and their own (spec 1): who
 * wrote it (a link to their profile), the stars, when, and the comment. Reviews that cannot be
 * fetched are only logged (spec 2 §8).
 */
export function ReceivedReviews({ userId, empty }: { userId: string; empty: string }) {
  const reviews = useApi(tradeApi.reviews, { params: { id: userId } });
  useEffect(() => {
    if (reviews.isError) console.warn('Kon reviews niet ophalen', reviews.error);
  }, [reviews.isError, reviews.error]);
  if (reviews.isPending) return <Spinner label="Reviews worden geladen…" />;
  if (reviews.isError) return null;
  if (reviews.data.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <ul className={styles.reviews} data-testid="received-reviews">
      {reviews.data.map((review) => (
        <li key={review.id} className={styles.review} data-testid="received-review">
          <p className={styles.head}>
            <img className={styles.reviewer} src={review.reviewer.profilePicture || DEFAULT_AVATAR} alt="" width={32} height={32} loading="lazy" />
            <Link to={`/dashboard/user/${encodeURIComponent(review.reviewer.id)}`}>
              {review.reviewer.firstName} {review.reviewer.lastName}
            </Link>
            <Stars rating={review.rating} />
            <span className={styles.date}>{formatDate(review.createdAt)}</span>
          </p>
          <p className={styles.comment}>{review.comment.trim() || REVIEW_MESSAGES.noComment}</p>
        </li>
      ))}
    </ul>
  );
}
