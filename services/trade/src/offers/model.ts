import { eventRegistry, type Offer, type OfferEvent, type OfferItem, type OfferStatus } from '@ruilplein/contracts';
import { createEvent } from '@ruilplein/service-kit';
import type { WithOutbox } from '../outbox.ts';
import { partyOf, type MemberDoc } from '../members/model.ts';

/**
 * A trade offer, keyed by its number. `version` counts its changes (1 when made) and every change
 * is one update conditional on the version read, with its event in the same write (outbox): two
 * confirmations at once, or a confirmation racing a withdrawal, cannot both apply to one state.
 * The listings are copied from the inventory when the offer is made (title, text, picture), so the
 * offer reads the same after a listing changed or went.
 */
export interface OfferDoc extends WithOutbox {
  _id: number;
  version: number;
  senderId: string;
  receiverId: string;
  /** The receiver's listing the offer was made on. */
  listingId: string;
  listingOfferedOn: OfferItem;
  /** The receiver's items first, then the sender's (the crate as `krat-bier`). */
  items: OfferItem[];
  status: OfferStatus;
  message: string;
  senderConfirmed: boolean;
  receiverConfirmed: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Counter-offers (issue 24): the offer this one answers, the one that answered this one (which ended it as Rejected), and which round of the chain this is (1: the first offer). */
  counterOf?: number;
  counteredBy?: number;
  round?: number;
}

/** The open statuses: the offer can still change. */
export const OPEN: readonly OfferStatus[] = ['Pending', 'Accepted'];

export const isParty = (doc: Pick<OfferDoc, 'senderId' | 'receiverId'>, userId: string) => doc.senderId === userId || doc.receiverId === userId;
export const otherParty = (doc: Pick<OfferDoc, 'senderId' | 'receiverId'>, userId: string) => (doc.senderId === userId ? doc.receiverId : doc.senderId);

/**
 * The offer's items. An offer without items is allowed (the spec has no such rule), and an empty
 * array written in an upsert's `$setOnInsert` comes back as no field at all.
 */
export const itemsOf = (doc: Pick<OfferDoc, 'items'>): OfferItem[] => doc.items ?? [];

/** Listings the offer holds (the crate is none): the one it was made on and every item's. */
export const heldListings = (doc: Pick<OfferDoc, 'listingId' | 'items'>): Set<string> =>
  new Set([doc.listingId, ...itemsOf(doc).filter((i) => !i.isDefault).map((i) => i.listingID)]);

export function offerEventPayload(doc: OfferDoc, actorId?: string): OfferEvent {
  return {
    id: doc._id,
    version: doc.version,
    senderId: doc.senderId,
    receiverId: doc.receiverId,
    listingId: doc.listingId,
    // The listing it was made on too: offers made before it was always among the items lacked it.
    listingIds: [...new Set([...itemsOf(doc).filter((i) => !i.isDefault).map((i) => i.listingID), doc.listingId])],
    status: doc.status,
    senderConfirmed: doc.senderConfirmed,
    receiverConfirmed: doc.receiverConfirmed,
    createdAt: new Date(doc.createdAt).toISOString(),
    at: new Date(doc.updatedAt).toISOString(),
    ...(actorId && { actorId }),
  };
}

type OfferSubject = 'trade.offer.created' | 'trade.offer.accepted' | 'trade.offer.rejected' | 'trade.offer.cancelled' | 'trade.offer.confirmed' | 'trade.offer.completed';

/** The event of a change that left the offer as `after`, made by `actorId` (none: the platform). */
export function offerEvent(after: OfferDoc, created = false, actorId?: string) {
  const subjects: Record<OfferStatus, OfferSubject> = {
    Pending: 'trade.offer.created',
    // Accepted again (one party confirmed): confirmed; the first time: accepted.
    Accepted: after.senderConfirmed || after.receiverConfirmed ? 'trade.offer.confirmed' : 'trade.offer.accepted',
    Rejected: 'trade.offer.rejected',
    Cancelled: 'trade.offer.cancelled',
    Completed: 'trade.offer.completed',
  };
  return createEvent(eventRegistry, created ? 'trade.offer.created' : subjects[after.status], offerEventPayload(after, actorId));
}

/** The read shape of spec 2 §3, with the parties' names and pictures as they are now. */
export function toOffer(doc: OfferDoc, members: ReadonlyMap<string, MemberDoc>): Offer {
  const requested = itemsOf(doc).filter((i) => i.userID === doc.receiverId);
  const offered = itemsOf(doc).filter((i) => i.userID === doc.senderId);
  return {
    id: doc._id,
    senderID: doc.senderId,
    receiverID: doc.receiverId,
    sender: partyOf(doc.senderId, members.get(doc.senderId)),
    receiver: partyOf(doc.receiverId, members.get(doc.receiverId)),
    status: doc.status,
    message: doc.message,
    senderConfirmed: doc.senderConfirmed,
    receiverConfirmed: doc.receiverConfirmed,
    listingOfferedOnID: doc.listingId,
    listingOfferedOn: doc.listingOfferedOn,
    requestedListings: requested,
    offeredListings: offered,
    items: [...requested, ...offered],
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
    counterOf: doc.counterOf ?? null,
    counteredBy: doc.counteredBy ?? null,
  };
}
