// What the offers list marks (issue 22), as plain functions: which offers wait for the member, and
// which have unread chat messages (mfe-trades/test/offers.unit.test.ts).
import type { Notification, Offer } from '@ruilplein/contracts/browser';

/**
 * What the member has to do next on an offer, if anything: answer a received one, or confirm an
 * accepted trade. In a swap chain (three participants) each member has their own answer and
 * confirmation; the proposer's answer is the proposal.
 */
export function waitingFor(
  offer: Pick<Offer, 'senderID' | 'status' | 'senderConfirmed' | 'receiverConfirmed'> & { participants?: ReadonlyArray<{ id: string; accepted: boolean; confirmed: boolean }> },
  userId: string | undefined,
): string | null {
  const member = offer.participants?.find((p) => p.id === userId);
  if (member) {
    if (offer.status === 'Pending' && !member.accepted) return 'Wacht op jouw antwoord';
    if (offer.status === 'Accepted' && !member.confirmed) return 'Wacht op jouw bevestiging';
    return null;
  }
  const sent = offer.senderID === userId;
  if (offer.status === 'Pending' && !sent) return 'Wacht op jouw antwoord';
  if (offer.status === 'Accepted' && !(sent ? offer.senderConfirmed : offer.receiverConfirmed)) return 'Wacht op jouw bevestiging';
  return null;
}

/** The unread chat notification of each offer, by offer id (one per conversation, kept up to date by the service). */
export function unreadChats(notifications: readonly Notification[]): Map<number, Notification> {
  const byOffer = new Map<number, Notification>();
  for (const notification of notifications) {
    if (notification.kind !== 'chat-message' || notification.readAt) continue;
    const id = /^\/dashboard\/tradeoffer\/(\d+)$/.exec(notification.link)?.[1];
    if (id && !byOffer.has(Number(id))) byOffer.set(Number(id), notification);
  }
  return byOffer;
}
