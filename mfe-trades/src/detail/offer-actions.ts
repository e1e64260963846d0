// The actions of an offer's page, once for two parties (StatusActions) and for a swap chain
// (ChainOffer): answer, withdraw and confirm, each read again afterwards (spec 2 §4), with the
// outcome or refusal as a notice and a confirmation asked first.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tradeApi, type Offer, type OfferResponse } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, request, useConfirm } from '@ruilplein/ui';
import type { NoticeValue } from '../common/Notice.tsx';
import { invalidateTradeData } from '../common/queries.ts';

export interface Question {
  message: string;
  confirmLabel: string;
  danger: boolean;
  /** The notice once done. */
  done: string;
}

/** The server's refusal as it is; a failure of the connection or the server in general words. */
const failureOf = (err: unknown) => (err instanceof ApiError && err.status !== 0 && err.status < 500 ? err.message : 'Er ging iets mis. Probeer het later opnieuw.');

/** `questions`: what each answer asks and says; `completed`: the notice when the last confirmation completes the trade. */
export function useOfferActions(offer: Offer, words: { questions: Record<OfferResponse, Question>; completed: string }) {
  const queries = useQueryClient();
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const id = String(offer.id);
  // After any change (or a refusal: the offer may have moved on) the offer is read again.
  const settle = (updated?: Offer) => {
    if (updated) queries.setQueryData(apiQuery(tradeApi.get, { params: { id } }).queryKey, updated);
    return invalidateTradeData(queries);
  };
  const failed = (what: string) => (err: unknown) => {
    console.warn(what, err);
    setNotice({ ok: false, message: failureOf(err) });
    return settle();
  };
  const respond = useMutation({
    mutationFn: (status: OfferResponse) => request(tradeApi.respond, { params: { id }, query: { status } }),
    onSuccess: (updated, status) => {
      setNotice({ ok: true, message: words.questions[status].done });
      return settle(updated);
    },
    onError: failed('Status bijwerken mislukt'),
  });
  const confirmTrade = useMutation({
    mutationFn: () => request(tradeApi.confirm, { params: { id } }),
    onSuccess: (updated) => {
      setNotice({ ok: true, message: updated.status === 'Completed' ? words.completed : 'Je hebt de ruil bevestigd.' });
      return settle(updated);
    },
    onError: failed('Bevestigen mislukt'),
  });
  /** Asks first, then answers. */
  const ask = async (status: OfferResponse) => {
    const question = words.questions[status];
    if (!(await confirm(question.message, question))) return;
    setNotice(null);
    respond.mutate(status);
  };
  /** Asks `question` first, then confirms the trade. */
  const askConfirm = async (question: string) => {
    if (!(await confirm(question, { confirmLabel: 'Ruil bevestigen' }))) return;
    setNotice(null);
    confirmTrade.mutate();
  };
  return { dialog, notice, setNotice, ask, askConfirm, busy: respond.isPending || confirmTrade.isPending };
}
