import type { OfferStatus } from '@ruilplein/contracts/browser';
import { statusLabel } from './status.ts';
import * as styles from './StatusBadge.module.css';

/** The status's Dutch name as a badge; its colour follows the card's (never the only cue: the name is there). */
export function StatusBadge({ status }: { status: OfferStatus }) {
  return (
    <span className={`${styles.badge} ${styles[status.toLowerCase()] ?? ''}`} data-testid="offer-status">
      {statusLabel(status)}
    </span>
  );
}
