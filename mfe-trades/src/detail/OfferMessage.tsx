// The sender's message with an offer, as the two-party and the swap chain's offer pages show it.
import * as styles from './OfferDetail.module.css';

export function OfferMessage({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <section className={styles.request} aria-labelledby="offer-message-title">
      <h2 id="offer-message-title" className={styles.panelTitle}>
        Bericht bij aanvraag
      </h2>
      <p className={styles.message} data-testid="offer-message">
        {message}
      </p>
    </section>
  );
}
