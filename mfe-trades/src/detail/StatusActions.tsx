// What each party can do with the offer in its status (spec 2 §4): the receiver accepts or rejects a
// pending offer, the sender withdraws it, both confirm an accepted one, then both review.
import { OFFER_MESSAGES, type Offer, type OfferResponse } from '@ruilplein/contracts/browser';
import { buttonClass } from '@ruilplein/ui';
import { Notice } from '../common/Notice.tsx';
import type { Side } from '../common/status.ts';
import { useOfferActions, type Question } from './offer-actions.ts';
import { ReviewSection } from './Review.tsx';
import * as styles from './OfferDetail.module.css';

const QUESTIONS: Record<OfferResponse, Question> = {
  Accepted: { message: 'Weet je zeker dat je dit aanbod wilt accepteren?', confirmLabel: 'Accepteren', danger: false, done: 'Je hebt het aanbod geaccepteerd.' },
  Rejected: { message: 'Weet je zeker dat je dit aanbod wilt afwijzen?', confirmLabel: 'Afwijzen', danger: true, done: 'Je hebt het aanbod afgewezen.' },
  Cancelled: { message: 'Weet je zeker dat je dit aanbod wilt intrekken?', confirmLabel: 'Intrekken', danger: true, done: 'Je hebt het aanbod ingetrokken.' },
};

/** `onCounter`: 'Tegenbod doen' (issue 24) opens the offer builder for a counter-offer. */
export function StatusActions({ offer, side, onCounter }: { offer: Offer; side: Exclude<Side, 'none'>; onCounter?: () => void }) {
  const other = side === 'sender' ? offer.receiver : offer.sender;
  const { dialog, notice, ask, askConfirm: confirmAsking, busy } = useOfferActions(offer, { questions: QUESTIONS, completed: 'De ruil is voltooid!' });
  const askConfirm = () => confirmAsking(`Heb je met ${other.firstName} geruild zoals afgesproken? Als jullie allebei bevestigen, is de ruil voltooid.`);
  const confirmedByMe = side === 'sender' ? offer.senderConfirmed : offer.receiverConfirmed;
  const confirmedByOther = side === 'sender' ? offer.receiverConfirmed : offer.senderConfirmed;

  let content = null;
  if (offer.status === 'Pending' && side === 'receiver')
    content = (
      <>
        <p className={styles.explain}>
          {other.firstName} wil met je ruilen. Accepteer het aanbod om de ruil af te spreken, of wijs het af.
          {onCounter && ' Wil je iets anders ruilen? Doe dan een tegenbod.'}
        </p>
        <div className={styles.buttons}>
          <button type="button" className={buttonClass()} disabled={busy} onClick={() => void ask('Accepted')}>
            Accepteren
          </button>
          <button type="button" className={`${buttonClass('secondary')} ${styles.danger}`} disabled={busy} onClick={() => void ask('Rejected')}>
            Afwijzen
          </button>
          {onCounter && (
            <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={onCounter} data-testid="counter-open">
              Tegenbod doen
            </button>
          )}
        </div>
      </>
    );
  else if (offer.status === 'Pending')
    content = (
      <>
        <p className={styles.explain}>Wachten op een antwoord van {other.firstName}. Zolang het aanbod in afwachting is, kun je het intrekken.</p>
        <div className={styles.buttons}>
          <button type="button" className={`${buttonClass('secondary')} ${styles.danger}`} disabled={busy} onClick={() => void ask('Cancelled')}>
            Intrekken
          </button>
        </div>
      </>
    );
  else if (offer.status === 'Accepted')
    content = confirmedByMe ? (
      <p className={styles.waiting} data-testid="confirm-waiting">
        {OFFER_MESSAGES.waiting}
      </p>
    ) : (
      <>
        <p className={styles.explain}>
          Het aanbod is geaccepteerd. Spreek in de chat af hoe jullie ruilen, en bevestig de ruil zodra die heeft plaatsgevonden.
          {confirmedByOther && ` ${other.firstName} heeft de ruil al bevestigd.`}
        </p>
        <div className={styles.buttons}>
          <button type="button" className={buttonClass()} disabled={busy} onClick={() => void askConfirm()}>
            Ruil bevestigen
          </button>
        </div>
      </>
    );
  else if (offer.status === 'Completed') content = <ReviewSection offer={offer} other={other} />;

  return (
    <section className={styles.actions} aria-label="Acties" data-testid="offer-actions">
      <Notice notice={notice} testId="offer-notice" />
      {content}
      {dialog}
    </section>
  );
}
