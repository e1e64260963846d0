// A rating shown as five stars, whole or half filled (reviews are 1 to 5 stars in half steps).
import * as styles from './Stars.module.css';

const STAR = '12 2 15.09 8.26 22 9.27 17 14.14 18.18 21.02 12 17.77 5.82 21.02 7 14.14 2 9.27 8.91 8.26';
// The star is symmetric about x = 12: its left half.
const LEFT_HALF = '12 2 12 17.77 5.82 21.02 7 14.14 2 9.27 8.91 8.26';
const number = new Intl.NumberFormat('nl-NL', { maximumFractionDigits: 1 });

export function Stars({ rating }: { rating: number }) {
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
