// The star rating of the review form (spec 2 §4): 1 to 5 stars in half steps. Nine radio buttons in
// one group, drawn as the first star whole and the halves of the other four: the arrow keys move
// through them as through any radio group, and each says how many stars it gives.
import { Fragment, useId, useState } from 'react';
import { RATING_MAX, RATING_MIN, RATING_STEP } from '@ruilplein/contracts/browser';
import * as styles from './StarRating.module.css';

const VALUES = Array.from({ length: (RATING_MAX - RATING_MIN) / RATING_STEP + 1 }, (_, i) => RATING_MIN + i * RATING_STEP);
const number = new Intl.NumberFormat('nl-NL', { maximumFractionDigits: 1 });

/** '1 ster', '3,5 sterren'. */
export const starsLabel = (value: number) => `${number.format(value)} ${value === 1 ? 'ster' : 'sterren'}`;

const STAR = '12 2 15.09 8.26 22 9.27 17 14.14 18.18 21.02 12 17.77 5.82 21.02 7 14.14 2 9.27 8.91 8.26';

/** A star, whole or one half of it (the half a label covers). */
function StarShape({ part }: { part: 'whole' | 'left' | 'right' }) {
  const viewBox = part === 'whole' ? '0 0 24 24' : part === 'left' ? '0 0 12 24' : '12 0 12 24';
  return (
    <svg className={styles.shape} viewBox={viewBox} aria-hidden="true" focusable="false">
      <polygon points={STAR} />
    </svg>
  );
}

export function StarRating({ value, onChange, describedBy }: { value: number; onChange: (value: number) => void; describedBy?: string }) {
  const name = useId();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value;
  return (
    <fieldset className={styles.rating} aria-describedby={describedBy}>
      <legend className={styles.legend}>
        Beoordeling
      </legend>
      <div className={styles.stars} onMouseLeave={() => setHover(null)}>
        {VALUES.map((v) => {
          const id = `${name}-${v}`;
          // 1 is the whole first star; after it, x.5 is a star's left half and a whole number its right half.
          const part = v === RATING_MIN ? 'whole' : Number.isInteger(v) ? 'right' : 'left';
          return (
            <Fragment key={v}>
              <input className={styles.radio} type="radio" id={id} name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
              <label htmlFor={id} className={`${styles.star} ${styles[part] ?? ''} ${v <= shown ? styles.filled : ''}`} onMouseEnter={() => setHover(v)}>
                <StarShape part={part} />
                <span className={styles.hidden}>{starsLabel(v)}</span>
              </label>
            </Fragment>
          );
        })}
      </div>
      <p className={styles.value} aria-hidden="true">
        {value ? `${number.format(value)} / 5` : 'Kies 1 tot 5 sterren'}
      </p>
    </fieldset>
  );
}
