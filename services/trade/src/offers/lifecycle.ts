import { OFFER_MESSAGES, type OfferItem, type OfferResponse } from '@ruilplein/contracts';
import { byIds, conflict, forbidden, HttpError, outboxFields } from '@ruilplein/service-kit';
import { COLLECTIONS, type TradeContext } from '../context.ts';
import { heldListings, isChain, isParty, itemsOf, membersOf, offerEvent, OPEN, type OfferDoc, type ParticipantDoc } from './model.ts';
import { countTrade, listForReceiver, offerIdsOf, reserveForSender, unlist } from './parties.ts';
import { claimListings, releaseListings, tradedAmong } from './traded.ts';

const ATTEMPTS = 8;

/** The next offer number: one counter document, `$inc` (one write at a time, so no number twice). */
export async function nextOfferId(ctx: Pick<TradeContext, 'counters'>): Promise<number> {
  const doc = await ctx.counters.findOneAndUpdate({ _id: 'offer' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
  if (!doc || !Number.isSafeInteger(doc.seq) || doc.seq < 1) throw new Error('offer counter answered no number');
  return doc.seq;
}

export interface NewOffer {
  senderId: string;
  receiverId: string;
  listingOfferedOn: OfferItem;
  items: OfferItem[];
  message: string;
  /** Counts against the sender's daily limit (no Premium). */
  limited: boolean;
  /** A counter-offer: the offer it answers and its round (it counts for no day). */
  counterOf?: number;
  round?: number;
  /** A three-party offer: its members in ring order (the sender among them, counted as accepted) and its chain. */
  participants?: ParticipantDoc[];
  chainId?: string;
}

/**
 * Makes an offer: a number, a place of the sender's day (403 past the limit), the receiver's list,
 * then the offer with its `trade.offer.created` event. An offer whose write failed is taken off
 * the lists again, so it no longer counts for the day.
 */
export async function createOffer(ctx: TradeContext, input: NewOffer, now: Date, number?: number): Promise<OfferDoc> {
  const id = number ?? (await nextOfferId(ctx));
  await reserveForSender(ctx, input.senderId, id, input.limited, now, input.counterOf !== undefined);
  try {
    for (const member of membersOf(input).filter((m) => m !== input.senderId)) await listForReceiver(ctx, member, id, now);
    const doc: OfferDoc = {
      _id: id,
      version: 1,
      senderId: input.senderId,
      receiverId: input.receiverId,
      listingId: input.listingOfferedOn.listingID,
      listingOfferedOn: input.listingOfferedOn,
      items: input.items,
      status: 'Pending',
      message: input.message,
      senderConfirmed: false,
      receiverConfirmed: false,
      createdAt: now,
      updatedAt: now,
      ...(input.counterOf !== undefined && { counterOf: input.counterOf, round: input.round }),
      ...(input.participants && { participants: input.participants, ...(input.chainId && { chainId: input.chainId }) }),
    };
    // The event in the same write (its outbox keys are paths: an upsert's $setOnInsert takes them).
    const { _id, ...fields } = doc;
    const written = await ctx.offers.updateOne({ _id }, { $setOnInsert: { ...fields, ...outboxFields(offerEvent(doc, true, input.senderId)) } }, { upsert: true });
    if (written.upsertedCount !== 1) throw conflict(OFFER_MESSAGES.busy);
    ctx.relay.kick(COLLECTIONS.offers, id);
    return doc;
  } catch (err) {
    await unlist(ctx, membersOf(input), id);
    throw err;
  }
}

type Change = Partial<Pick<OfferDoc, 'status' | 'senderConfirmed' | 'receiverConfirmed' | 'counteredBy' | 'participants'>> | undefined;
/** What a change sets; undefined: nothing to change. May throw (the change is refused). */
type Decide = (doc: OfferDoc) => Change | Promise<Change>;

/**
 * One change of an offer: read it, let `decide` say what changes, write that conditionally on the
 * version read with its event; when someone else changed it in between, read and decide again
 * (so a refusal is decided on the state that won). Undefined when there is no such offer. `actor`:
 * the member who made the change (none: the platform), named in the event.
 */
export async function changeOffer(ctx: TradeContext, id: number, decide: Decide, now: Date, actor?: string): Promise<{ before: OfferDoc; after: OfferDoc } | undefined> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const before = await ctx.offers.findOne({ _id: id });
    if (!before) return undefined;
    const set = await decide(before);
    if (!set) return { before, after: before };
    const after: OfferDoc = { ...before, ...set, version: before.version + 1, updatedAt: now };
    const written = await ctx.offers.updateOne(
      { _id: id, version: before.version },
      { $set: { ...set, version: after.version, updatedAt: now, ...outboxFields(offerEvent(after, false, actor)) } },
    );
    if (written.modifiedCount === 1) {
      ctx.relay.kick(COLLECTIONS.offers, id);
      return { before, after };
    }
  }
  throw conflict(OFFER_MESSAGES.busy);
}

/**
 * Spec 2 §4: the receiver accepts or rejects a Pending offer, the sender withdraws it (Cancelled).
 * A party asking anything else is a 409; who is no party, a 403.
 */
export function respondRule(userId: string, status: OfferResponse): (doc: OfferDoc) => Change {
  return (doc) => {
    if (!isParty(doc, userId)) throw forbidden(OFFER_MESSAGES.notParty);
    if (isChain(doc)) return chainRespond(doc, userId, status);
    if (status === 'Cancelled' && doc.senderId !== userId) throw conflict(OFFER_MESSAGES.onlySenderWithdraws);
    if (status !== 'Cancelled' && doc.receiverId !== userId) throw conflict(OFFER_MESSAGES.onlyReceiverResponds);
    if (doc.status !== 'Pending') throw conflict(OFFER_MESSAGES.notPending);
    return { status };
  };
}

/**
 * A member of a chain answers: a member other than the proposer accepts (the last acceptance makes
 * the offer Accepted) or rejects (for all); the proposer withdraws it. Refusals as for two parties.
 */
function chainRespond(doc: OfferDoc & { participants: ParticipantDoc[] }, userId: string, status: OfferResponse): Change {
  if (status === 'Cancelled' && doc.senderId !== userId) throw conflict(OFFER_MESSAGES.onlySenderWithdraws);
  if (status !== 'Cancelled' && doc.senderId === userId) throw conflict(OFFER_MESSAGES.onlyReceiverResponds);
  if (doc.status !== 'Pending') throw conflict(OFFER_MESSAGES.notPending);
  if (status !== 'Accepted') return { status };
  if (doc.participants.find((p) => p.userId === userId)?.accepted) throw conflict(OFFER_MESSAGES.alreadyAccepted);
  const participants = doc.participants.map((p) => (p.userId === userId ? { ...p, accepted: true } : p));
  return { participants, ...(participants.every((p) => p.accepted) && { status: 'Accepted' as const }) };
}

/** A member of an Accepted chain confirms once; the last confirmation completes it. */
function chainConfirm(doc: OfferDoc & { participants: ParticipantDoc[] }, userId: string): Change {
  if (doc.participants.find((p) => p.userId === userId)?.confirmed) throw conflict(OFFER_MESSAGES.alreadyConfirmed);
  if (doc.status !== 'Accepted') throw conflict(OFFER_MESSAGES.notAccepted);
  const participants = doc.participants.map((p) => (p.userId === userId ? { ...p, confirmed: true } : p));
  const confirmed = (id: string) => participants.find((p) => p.userId === id)?.confirmed ?? false;
  return {
    participants,
    senderConfirmed: confirmed(doc.senderId),
    receiverConfirmed: confirmed(doc.receiverId),
    ...(participants.every((p) => p.confirmed) && { status: 'Completed' as const }),
  };
}

/** Each party confirms an Accepted offer once; the second (for a chain, the last) confirmation completes it. */
export function confirmRule(userId: string): (doc: OfferDoc) => Change {
  return (doc) => {
    if (!isParty(doc, userId)) throw forbidden(OFFER_MESSAGES.notParty);
    if (isChain(doc)) return chainConfirm(doc, userId);
    const mine = doc.senderId === userId ? 'senderConfirmed' : 'receiverConfirmed';
    const theirs = mine === 'senderConfirmed' ? 'receiverConfirmed' : 'senderConfirmed';
    if (doc[mine]) throw conflict(OFFER_MESSAGES.alreadyConfirmed);
    if (doc.status !== 'Accepted') throw conflict(OFFER_MESSAGES.notAccepted);
    const completes = doc[theirs] ? { status: 'Completed' as const } : {};
    return mine === 'senderConfirmed' ? { senderConfirmed: true, ...completes } : { receiverConfirmed: true, ...completes };
  };
}

/**
 * A party confirms; the confirmation that completes the trade first claims every listing it holds
 * (traded.ts), so a listing goes in one completed trade only: of two accepted offers on one
 * listing, the second to complete gets 409 and stays Accepted. Claims of a completion that was
 * not written are given back.
 */
export async function confirmOffer(ctx: TradeContext, id: number, userId: string, now: Date): Promise<{ before: OfferDoc; after: OfferDoc } | undefined> {
  const rule = confirmRule(userId);
  let claimedFor: OfferDoc | undefined;
  let changed: { before: OfferDoc; after: OfferDoc } | undefined;
  try {
    changed = await changeOffer(
      ctx,
      id,
      async (doc) => {
        const set = rule(doc);
        if (set?.status === 'Completed') {
          await claimListings(ctx, doc._id, heldListings(doc), now);
          claimedFor = doc;
        }
        return set;
      },
      now,
      userId,
    );
    return changed;
  } finally {
    if (claimedFor && changed?.after.status !== 'Completed') await releaseListings(ctx, claimedFor._id, heldListings(claimedFor));
  }
}

/**
 * Before an offer is accepted: every listing in it is still tradeable (its owner's inventory holds
 * it, and no other trade took it, though the listing service may not know yet), else 409. Offers
 * holding a listing that was traded or deleted are cancelled as that happens; this covers an
 * offer made in the moment between.
 */
export async function checkStillAvailable(ctx: Pick<TradeContext, 'inventory' | 'traded' | 'offers'>, doc: OfferDoc, now: Date): Promise<void> {
  if ((await tradedAmong(ctx, heldListings(doc), now, doc._id)).size) throw conflict(OFFER_MESSAGES.itemsGone);
  const owners = membersOf(doc);
  const inventories = await Promise.all(owners.map((id) => ctx.inventory(id).catch(rethrowGone)));
  const available = new Set(inventories.flatMap((items) => items.filter((i) => !i.isDefault).map((i) => `${i.userID}:${i.listingID}`)));
  const wanted = [{ userID: doc.receiverId, listingID: doc.listingId, isDefault: false }, ...itemsOf(doc)].filter((i) => !i.isDefault);
  if (wanted.some((i) => !available.has(`${i.userID}:${i.listingID}`))) throw conflict(OFFER_MESSAGES.itemsGone);
}

/** A party the listing service no longer knows (404) has nothing left to trade. */
const rethrowGone = (err: unknown): never => {
  if (err instanceof HttpError && err.status === 404) throw conflict(OFFER_MESSAGES.itemsGone);
  throw err;
};

/**
 * Cancels (announced) the Pending offers (and Accepted chains) of `owners` that hold any of `listingIds`, but `except`.
 * A listing's offers all have its owner as a party, so their lists are enough. Answers how many.
 */
export async function cancelPendingHolding(ctx: TradeContext, listingIds: readonly string[], owners: readonly string[], now: Date, except?: number): Promise<number> {
  const gone = new Set(listingIds);
  if (!gone.size) return 0;
  const ids = [...new Set((await Promise.all(owners.map((o) => offerIdsOf(ctx, o)))).flat())].filter((id) => id !== except);
  // A chain also when Accepted: it completes only with every listing, and its members confirm one by one.
  const holds = (doc: OfferDoc) => (doc.status === 'Pending' || (doc.status === 'Accepted' && isChain(doc))) && [...heldListings(doc)].some((l) => gone.has(l));
  let cancelled = 0;
  for (const doc of await byIds(ctx.offers, ids, { status: { $in: [...OPEN] } })) {
    if (!holds(doc)) continue;
    const changed = await changeOffer(ctx, doc._id, (current) => (holds(current) ? { status: 'Cancelled' } : undefined), now);
    if (changed && changed.after !== changed.before) cancelled++;
  }
  return cancelled;
}

/**
 * After a trade completed (by the confirming request, and again by the consumer of its event, which
 * makes it certain): each party counts one trade more, and the other Pending offers holding one of
 * its listings are cancelled, since those listings are traded now. Safe to repeat.
 */
export async function settleCompleted(ctx: TradeContext, offer: { _id: number; members: readonly string[]; listingIds: readonly string[] }, now: Date): Promise<void> {
  for (const member of offer.members) await countTrade(ctx, member, offer._id, now);
  const cancelled = await cancelPendingHolding(ctx, offer.listingIds, offer.members, now, offer._id);
  if (cancelled) ctx.logger.info({ offerId: offer._id, cancelled }, 'pending offers on traded listings cancelled');
}

/**
 * A member whose account is gone (or, once moderation announces bans, who is banned): every open
 * offer of theirs (Pending or Accepted) is cancelled, announced, so the other party's chat closes.
 * Completed ones stay, with the member shown as 'Voormalig lid'. Safe to repeat.
 */
/**
 * `a` blocked `b`: their open offers (Pending or Accepted) are cancelled, announced as `a`'s doing.
 * Safe to repeat.
 */
export async function closeOffersBetween(ctx: TradeContext, a: string, b: string, now: Date): Promise<number> {
  const between = (doc: OfferDoc) => OPEN.includes(doc.status) && isParty(doc, a) && isParty(doc, b);
  let cancelled = 0;
  for (const doc of await byIds(ctx.offers, await offerIdsOf(ctx, a), { status: { $in: [...OPEN] } })) {
    if (!between(doc)) continue;
    const changed = await changeOffer(ctx, doc._id, (current) => (between(current) ? { status: 'Cancelled' } : undefined), now, a);
    if (changed && changed.after !== changed.before) cancelled++;
  }
  return cancelled;
}

export async function closeOffersOfMember(ctx: TradeContext, userId: string, now: Date): Promise<number> {
  let cancelled = 0;
  for (const doc of await byIds(ctx.offers, await offerIdsOf(ctx, userId), { status: { $in: [...OPEN] } })) {
    const changed = await changeOffer(ctx, doc._id, (current) => (OPEN.includes(current.status) && isParty(current, userId) ? { status: 'Cancelled' } : undefined), now, userId);
    if (changed && changed.after !== changed.before) cancelled++;
  }
  return cancelled;
}
