// The review after a completed trade (spec 2 §4 and §5): the form while the member has not reviewed
// the other party for this trade, the thank-you text after.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGES, tradeApi, type Offer, type OfferParty } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, buttonClass, request, Spinner, useApi } from '@ruilplein/ui';
import { invalidateTradeData } from '../common/queries.ts';
import { StarRating } from './StarRating.tsx';
import * as styles from './OfferDetail.module.css';

/** What a failed review says (spec 2 §8). */
function failure(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === 0) return 'Er ging iets mis. Probeer het opnieuw.';
  if (err.status >= 500) return REVIEW_MESSAGES.failed;
  return err.message || REVIEW_MESSAGES.failed;
}

function ReviewForm({ offer, other, onDone }: { offer: Offer; other: OfferParty; onDone: () => void }) {
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();
  const commentId = useId();
  const problemId = useId();
  const send = useMutation({
    mutationFn: () => request(tradeApi.addReview, { body: { revieweeID: other.id, rating, comment: comment.trim(), tradeOfferId: offer.id } }),
    onSuccess: onDone,
    onError: (err) => {
      console.warn('Review versturen mislukt', err);
      setProblem(failure(err));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!rating) return setProblem(REVIEW_MESSAGES.ratingRequired);
    setProblem(null);
    send.mutate();
  };

  return (
    <form className={styles.review} onSubmit={submit} aria-labelledby={headingId} noValidate data-testid="review-form">
      <h3 id={headingId} className={styles.subheading}>
        Beoordeel {other.firstName}
      </h3>
      <StarRating value={rating} onChange={setRating} describedBy={problem ? problemId : undefined} />
      <label htmlFor={commentId} className={styles.label}>
        Opmerking (optioneel)
      </label>
      <textarea id={commentId} className={styles.textarea} rows={3} maxLength={REVIEW_COMMENT_MAX_LENGTH} value={comment} onChange={(event) => setComment(event.target.value)} />
      <div role="alert" className={styles.alertRegion}>
        {problem && (
          <p id={problemId} className={styles.problem} data-testid="review-problem">
            {problem}
          </p>
        )}
      </div>
      <div>
        <button type="submit" className={buttonClass()} disabled={send.isPending}>
          {send.isPending ? 'Bezig...' : 'Review versturen'}
        </button>
      </div>
    </form>
  );
}

/** Shown once the offer is Completed, to its two parties. */
export function ReviewSection({ offer, other }: { offer: Offer; other: OfferParty }) {
  const queries = useQueryClient();
  const input = { params: { userId: other.id }, query: { tradeOfferId: String(offer.id) } };
  const reviewed = useApi(tradeApi.hasReviewed, input);
  const done = () => {
    queries.setQueryData(apiQuery(tradeApi.hasReviewed, input).queryKey, { hasReviewed: true });
    void invalidateTradeData(queries);
  };
  const thanked = reviewed.data?.hasReviewed === true;
  return (
    <>
      {/* On the page from the start, so the thank-you text is read out when it appears. */}
      <div role="status" className={styles.alertRegion}>
        {thanked && (
          <p className={styles.thanks} data-testid="review-thanks">
            {REVIEW_MESSAGES.thanks}
          </p>
        )}
      </div>
      {reviewed.isPending ? <Spinner label="Laden..." /> : !thanked && <ReviewForm offer={offer} other={other} onDone={done} />}
    </>
  );
}
