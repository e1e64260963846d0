// How an offer's status reads and looks (spec 2 §2 and §4): the Dutch names, and which statuses
// still lead to the offer's screen (the others show their name in red instead).
import { OFFER_STATUS_LABELS, type Offer, type OfferStatus } from '@ruilplein/contracts/browser';

export const statusLabel = (status: OfferStatus): string => OFFER_STATUS_LABELS[status];

/** Pending, Accepted and Completed offers link to 'Bekijk chat & details'. */
export const isOpenForDetails = (status: OfferStatus): boolean => status === 'Pending' || status === 'Accepted' || status === 'Completed';

/** Cancelled and Rejected offers close their chat. */
export const isClosed = (status: OfferStatus): boolean => status === 'Cancelled' || status === 'Rejected';

/** The chat's placeholder for a status (spec 2 §4). */
export function chatPlaceholder(status: OfferStatus): string {
  if (status === 'Cancelled') return 'Aanbod is geannuleerd.';
  if (status === 'Rejected') return 'Aanbod is afgewezen.';
  return 'Typ een bericht...';
}

/** The viewer's side of an offer: sender, receiver, or neither (an admin reading it for moderation). */
export type Side = 'sender' | 'receiver' | 'none';

export function sideOf(offer: Pick<Offer, 'senderID' | 'receiverID'>, userId: string | undefined): Side {
  if (userId && offer.senderID === userId) return 'sender';
  if (userId && offer.receiverID === userId) return 'receiver';
  return 'none';
}
