import { useId, useLayoutEffect, useRef, useState } from 'react';
import { buttonClass } from '@ruilplein/ui';
import * as styles from './ListingDetail.module.css';

/** The description, cut at 4 lines with 'Lees meer' when it is longer (spec 2 §9). */
export function Description({ text }: { text: string }) {
  const element = useRef<HTMLParagraphElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const id = useId();

  // Measured while cut, again when the width changes (a narrower column wraps more lines).
  useLayoutEffect(() => {
    const paragraph = element.current;
    if (!paragraph || expanded) return;
    const measure = () => setOverflows(paragraph.scrollHeight > paragraph.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(paragraph);
    return () => observer.disconnect();
  }, [text, expanded]);

  return (
    <div className={styles.description}>
      <p ref={element} id={id} className={expanded ? styles.fullText : styles.clampedText}>
        {text}
      </p>
      {(overflows || expanded) && (
        <button type="button" className={buttonClass('link')} aria-expanded={expanded} aria-controls={id} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'Lees minder' : 'Lees meer'}
        </button>
      )}
    </div>
  );
}
