// What each party can do with the offer in its status (spec 2 §4): the receiver accepts or rejects a
// pending offer, the sender withdraws it, both confirm an accepted one, then both review.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OFFER_MESSAGES, OFFER_RESPONSES, tradeApi, type Offer, type OfferResponse } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, buttonClass, request, useConfirm } from '@ruilplein/ui';
import { Notice, type NoticeValue } from '../common/Notice.tsx';
import { invalidateTradeData } from '../common/queries.ts';
import type { Side } from '../common/status.ts';
import { ReviewSection } from './Review.tsx';
import * as styles from './OfferDetail.module.css';

const QUESTIONS: Record<OfferResponse, { message: string; confirmLabel: string; danger: boolean; done: string }> = {
  Accepted: { message: 'Weet je zeker dat je dit aanbod wilt accepteren?', confirmLabel: 'Accepteren', danger: false, done: 'Je hebt het aanbod geaccepteerd.' },
  Rejected: { message: 'Weet je zeker dat je dit aanbod wilt afwijzen?', confirmLabel: 'Afwijzen', danger: true, done: 'Je hebt het aanbod afgewezen.' },
  Cancelled: { message: 'Weet je zeker dat je dit aanbod wilt intrekken?', confirmLabel: 'Intrekken', danger: true, done: 'Je hebt het aanbod ingetrokken.' },
};

const isResponse = (status: string): status is OfferResponse => (OFFER_RESPONSES as readonly string[]).includes(status);

/** The server's refusal as it is; a failure of the connection or the server in general words. */
const failureOf = (err: unknown) => (err instanceof ApiError && err.status !== 0 && err.status < 500 ? err.message : 'Er ging iets mis. Probeer het later opnieuw.');

/** `onCounter`: 'Tegenbod doen' (issue 24) opens the offer builder for a counter-offer. */
export function StatusActions({ offer, side, onCounter }: { offer: Offer; side: Exclude<Side, 'none'>; onCounter?: () => void }) {
  const queries = useQueryClient();
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const id = String(offer.id);
  const other = side === 'sender' ? offer.receiver : offer.sender;

  // After any change (or a refusal: the offer may have moved on) the offer is read again (spec 2 §4).
  const settle = (updated?: Offer) => {
    if (updated) queries.setQueryData(apiQuery(tradeApi.get, { params: { id } }).queryKey, updated);
    return invalidateTradeData(queries);
  };

  const respond = useMutation({
    mutationFn: (status: OfferResponse) => request(tradeApi.respond, { params: { id }, query: { status } }),
    onSuccess: (updated, status) => {
      setNotice({ ok: true, message: QUESTIONS[status].done });
      return settle(updated);
    },
    onError: (err) => {
      console.warn('Status bijwerken mislukt', err);
      setNotice({ ok: false, message: failureOf(err) });
      return settle();
    },
  });

  const confirmTrade = useMutation({
    mutationFn: () => request(tradeApi.confirm, { params: { id } }),
    onSuccess: (updated) => {
      setNotice({ ok: true, message: updated.status === 'Completed' ? 'De ruil is voltooid!' : 'Je hebt de ruil bevestigd.' });
      return settle(updated);
    },
    onError: (err) => {
      console.warn('Bevestigen mislukt', err);
      setNotice({ ok: false, message: failureOf(err) });
      return settle();
    },
  });

  /** Only the three answers of the respond call are asked for; anything else stays here (spec 2 §4). */
  const ask = async (status: string) => {
    if (!isResponse(status)) return console.warn('Ongeldige status voor een ruilaanbod', status);
    const question = QUESTIONS[status];
    if (!(await confirm(question.message, question))) return;
    setNotice(null);
    respond.mutate(status);
  };

  const askConfirm = async () => {
    const yes = await confirm(`Heb je met ${other.firstName} geruild zoals afgesproken? Als jullie allebei bevestigen, is de ruil voltooid.`, { confirmLabel: 'Ruil bevestigen' });
    if (!yes) return;
    setNotice(null);
    confirmTrade.mutate();
  };

  const busy = respond.isPending || confirmTrade.isPending;
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
