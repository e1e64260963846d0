import { eventRegistry, type Offer, type OfferEvent, type OfferEventParticipant, type OfferItem, type OfferParticipant, type OfferStatus } from '@ruilplein/contracts';
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
  /**
   * A three-party offer (a swap chain, issue 24): its members in ring order (each receives what the
   * next one gives), each with the listing ids they give and receive and their own acceptance and
   * confirmation. The whole array is written with every change, in the one update conditional on
   * `version` (FerretDB has no positional updates). `senderId` is the proposer, `receiverId` the
   * member who gives to them (`listingId` their listing), and `senderConfirmed`/`receiverConfirmed`
   * mirror those two, so everything that reads two parties still reads a valid offer. Absent: a
   * two-party offer, stored as the seed's.
   */
  participants?: ParticipantDoc[];
  /** The chain service's id of the chain it was proposed from. */
  chainId?: string;
}

export interface ParticipantDoc {
  userId: string;
  gives: string[];
  receives: string[];
  accepted: boolean;
  confirmed: boolean;
}

type Members = Pick<OfferDoc, 'senderId' | 'receiverId' | 'participants'>;

/** The open statuses: the offer can still change. */
export const OPEN: readonly OfferStatus[] = ['Pending', 'Accepted'];

/** Whether the offer is a three-party one (a swap chain). */
export const isChain = (doc: Pick<OfferDoc, 'participants'>): doc is { participants: ParticipantDoc[] } => !!doc.participants?.length;

/** The offer's members: the chain's, or the sender and the receiver. */
export const membersOf = (doc: Members): string[] => (isChain(doc) ? doc.participants.map((p) => p.userId) : [doc.senderId, doc.receiverId]);

export const isParty = (doc: Members, userId: string) => membersOf(doc).includes(userId);

/** Who gives to `userId` (whom they may review after the trade): in a chain the next member of the ring, else the other party. */
export function giverOf(doc: Members, userId: string): string | undefined {
  if (!isChain(doc)) return doc.senderId === userId ? doc.receiverId : doc.receiverId === userId ? doc.senderId : undefined;
  const at = doc.participants.findIndex((p) => p.userId === userId);
  return at < 0 ? undefined : doc.participants[(at + 1) % doc.participants.length]!.userId;
}

/** Who `userId` gives to: in a chain the previous member of the ring. */
function receiverOf(doc: { participants: ParticipantDoc[] }, userId: string): string {
  const at = doc.participants.findIndex((p) => p.userId === userId);
  const n = doc.participants.length;
  return doc.participants[(at + n - 1) % n]!.userId;
}

/**
 * The offer's items. An offer without items is allowed (the spec has no such rule), and an empty
 * array written in an upsert's `$setOnInsert` comes back as no field at all.
 */
export const itemsOf = (doc: Pick<OfferDoc, 'items'>): OfferItem[] => doc.items ?? [];

/** Listings the offer holds (the crate is none): the one it was made on and every item's. */
export const heldListings = (doc: Pick<OfferDoc, 'listingId' | 'items'>): Set<string> =>
  new Set([doc.listingId, ...itemsOf(doc).filter((i) => !i.isDefault).map((i) => i.listingID)]);

/** The members as announced (schema version 2): a chain's as stored, a two-party offer's from its items. */
function eventParticipants(doc: OfferDoc): OfferEventParticipant[] {
  if (isChain(doc)) return doc.participants.map((p) => ({ userId: p.userId, gives: p.gives, receives: p.receives, accepted: p.accepted, confirmed: p.confirmed }));
  const listings = itemsOf(doc).filter((i) => !i.isDefault);
  const of = (userId: string) => [...new Set([...(userId === doc.receiverId ? [doc.listingId] : []), ...listings.filter((i) => i.userID === userId).map((i) => i.listingID)])];
  const [senderGives, receiverGives] = [of(doc.senderId), of(doc.receiverId)];
  const receiverAccepted = doc.status === 'Accepted' || doc.status === 'Completed';
  return [
    { userId: doc.senderId, gives: senderGives, receives: receiverGives, accepted: true, confirmed: doc.senderConfirmed },
    { userId: doc.receiverId, gives: receiverGives, receives: senderGives, accepted: receiverAccepted, confirmed: doc.receiverConfirmed },
  ];
}

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
    participants: eventParticipants(doc),
    ...(doc.chainId && { chainId: doc.chainId }),
  };
}

type OfferSubject = 'trade.offer.created' | 'trade.offer.accepted' | 'trade.offer.rejected' | 'trade.offer.cancelled' | 'trade.offer.confirmed' | 'trade.offer.completed';

/** The event of a change that left the offer as `after`, made by `actorId` (none: the platform). */
export function offerEvent(after: OfferDoc, created = false, actorId?: string) {
  const subjects: Record<OfferStatus, OfferSubject> = {
    Pending: 'trade.offer.created',
    // Accepted again (one party confirmed): confirmed; the first time: accepted.
    Accepted: after.senderConfirmed || after.receiverConfirmed || after.participants?.some((p) => p.confirmed) ? 'trade.offer.confirmed' : 'trade.offer.accepted',
    Rejected: 'trade.offer.rejected',
    Cancelled: 'trade.offer.cancelled',
    Completed: 'trade.offer.completed',
  };
  // A chain still Pending after a change: one member accepted, the others not yet.
  const subject = created ? 'trade.offer.created' : after.status === 'Pending' && isChain(after) ? 'trade.offer.accepted' : subjects[after.status];
  return createEvent(eventRegistry, subject, offerEventPayload(after, actorId));
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
    ...(isChain(doc) && { participants: chainParticipants(doc, members), ...(doc.chainId && { chainId: doc.chainId }) }),
  };
}

/** A chain's members as answered: who they are, the items they give and receive, where they stand. */
function chainParticipants(doc: OfferDoc & { participants: ParticipantDoc[] }, members: ReadonlyMap<string, MemberDoc>): OfferParticipant[] {
  const item = (listingId: string) => itemsOf(doc).find((i) => i.listingID === listingId && !i.isDefault);
  const items = (ids: readonly string[]) => ids.map(item).filter((i): i is OfferItem => !!i);
  return doc.participants.map((p) => ({
    ...partyOf(p.userId, members.get(p.userId)),
    gives: items(p.gives),
    receives: items(p.receives),
    givesTo: receiverOf(doc, p.userId),
    receivesFrom: giverOf(doc, p.userId) ?? '',
    accepted: p.accepted,
    confirmed: p.confirmed,
  }));
}
