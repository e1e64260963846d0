import { amsterdamDay, eventRegistry, OFFER_DAILY_LIMIT, OFFER_MESSAGES, type ReliabilityFacts } from '@ruilplein/contracts';
import { byIds, conflict, createEvent, forbidden, outboxFields } from '@ruilplein/service-kit';
import { COLLECTIONS, type TradeContext } from '../context.ts';
import type { PartyDoc } from './party-model.ts';

const ATTEMPTS = 8;
/** A place of the day taken this long ago whose offer does not exist was left by a writer that died. */
export const STALE_RESERVATION_MS = 2 * 60_000;

const busy = () => conflict('Je ruilaanbiedingen worden net ook elders gewijzigd. Probeer het opnieuw.');
export const offerKey = (offerId: number) => `o${offerId}`;
const offerIdOf = (key: string) => Number(key.slice(1));

/** The member's offer numbers, newest first. */
export async function offerIdsOf(ctx: Pick<TradeContext, 'parties'>, userId: string): Promise<number[]> {
  const doc = await ctx.parties.findOne({ _id: userId }, { projection: { offers: 1 } });
  return Object.keys(doc?.offers ?? {})
    .map(offerIdOf)
    .filter((n) => Number.isSafeInteger(n) && n > 0)
    .sort((a, b) => b - a);
}

/**
 * Offers `party` made on the Dutch calendar day `day`. A place whose offer was never written
 * counts only while its writer may still be busy (STALE_RESERVATION_MS).
 */
export async function sentOn(ctx: Pick<TradeContext, 'offers'>, party: Pick<PartyDoc, 'offers'> | null, day: string, now: Date): Promise<number> {
  const entries = Object.entries(party?.offers ?? {}).filter(([, e]) => e.sent && !e.counter && amsterdamDay(new Date(e.at)) === day);
  if (!entries.length) return 0;
  const written = new Set((await byIds(ctx.offers, entries.map(([key]) => offerIdOf(key)))).map((o) => o._id));
  return entries.filter(([key, e]) => written.has(offerIdOf(key)) || now.getTime() - new Date(e.at).getTime() < STALE_RESERVATION_MS).length;
}

/** The member's document, made when missing (empty, version 0). */
async function partyOf(ctx: Pick<TradeContext, 'parties'>, userId: string): Promise<PartyDoc> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const doc = await ctx.parties.findOne({ _id: userId });
    if (doc) return doc;
    try {
      await ctx.parties.insertOne({ _id: userId, version: 0, offers: {}, totalTrades: 0, ratingSum: 0, totalReviewers: 0, counted: {}, received: {} });
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  }
  throw busy();
}

/**
 * Lists a new offer with its sender, counting it against their day (`limited`: a member without
 * Premium, at most OFFER_DAILY_LIMIT a day): one write conditional on the version read, so of two
 * offers made at once past the limit one is refused (403).
 */
export async function reserveForSender(ctx: Pick<TradeContext, 'parties' | 'offers'>, senderId: string, offerId: number, limited: boolean, now: Date, counter = false): Promise<void> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const party = await partyOf(ctx, senderId);
    if (limited && (await sentOn(ctx, party, amsterdamDay(now), now)) >= OFFER_DAILY_LIMIT) throw forbidden(OFFER_MESSAGES.dailyLimit);
    const written = await ctx.parties.updateOne(
      { _id: senderId, version: party.version },
      { $set: { [`offers.${offerKey(offerId)}`]: { at: now, sent: true, ...(counter && { counter }) }, version: party.version + 1 } },
    );
    if (written.modifiedCount === 1) return;
  }
  throw busy();
}

/** Lists a new offer with its receiver. */
export async function listForReceiver(ctx: Pick<TradeContext, 'parties'>, receiverId: string, offerId: number, now: Date): Promise<void> {
  await partyOf(ctx, receiverId);
  await ctx.parties.updateOne({ _id: receiverId }, { $set: { [`offers.${offerKey(offerId)}`]: { at: now, sent: false } }, $inc: { version: 1 } });
}

/** Takes an offer that was never written off both parties' lists again (best effort: readers skip it anyway). */
export async function unlist(ctx: Pick<TradeContext, 'parties' | 'logger'>, userIds: readonly string[], offerId: number): Promise<void> {
  for (const _id of userIds) {
    await ctx.parties
      .updateOne({ _id }, { $unset: { [`offers.${offerKey(offerId)}`]: '' }, $inc: { version: 1 } })
      .catch((err: unknown) => ctx.logger.warn({ err, userId: _id, offerId }, 'unwritten offer not taken off its party'));
  }
}

interface Totals {
  totalTrades: number;
  ratingSum: number;
  totalReviewers: number;
}

/** What one change of a member's standing adds or sets; undefined: nothing to do. */
type StandingChange = { add?: Partial<Totals>; reliability?: ReliabilityFacts; set?: Record<string, unknown> } | undefined;

/**
 * Changes a member's standing (their totals, their reliability facts): read, then one write
 * conditional on the version read, carrying the whole standing in `trade.member.counted`. A member
 * without a document (never traded, or their account is gone) is skipped. Answers whether it changed.
 */
export async function changeStanding(ctx: Pick<TradeContext, 'parties' | 'relay'>, userId: string, change: (doc: PartyDoc) => StandingChange): Promise<boolean> {
  for (let i = 0; i < ATTEMPTS; i++) {
    const doc = await ctx.parties.findOne({ _id: userId });
    const wanted = doc && change(doc);
    if (!doc || !wanted) return false;
    const totals: Totals = {
      totalTrades: (doc.totalTrades ?? 0) + (wanted.add?.totalTrades ?? 0),
      ratingSum: (doc.ratingSum ?? 0) + (wanted.add?.ratingSum ?? 0),
      totalReviewers: (doc.totalReviewers ?? 0) + (wanted.add?.totalReviewers ?? 0),
    };
    const reliability = wanted.reliability ?? doc.reliability;
    const version = doc.version + 1;
    const event = createEvent(eventRegistry, 'trade.member.counted', { userId, version, ...totals, ...(reliability && { reliability }) });
    const written = await ctx.parties.updateOne(
      { _id: userId, version: doc.version },
      { $set: { ...totals, version, ...(reliability && { reliability }), ...wanted.set, ...outboxFields(event) } },
    );
    if (written.modifiedCount === 1) {
      ctx.relay.kick(COLLECTIONS.parties, userId);
      return true;
    }
  }
  throw busy();
}

/** Adds to a member's totals once per `mark` (a trade or a review). */
const addToTotals = (ctx: Pick<TradeContext, 'parties' | 'relay'>, userId: string, mark: string, add: Partial<Totals>, extra: Record<string, unknown>, now: Date) =>
  changeStanding(ctx, userId, (doc) => (doc.counted?.[mark] ? undefined : { add, set: { [`counted.${mark}`]: now, ...extra } }));

/** One more completed trade for the member (once per offer). */
export const countTrade = (ctx: Pick<TradeContext, 'parties' | 'relay'>, userId: string, offerId: number, now: Date) =>
  addToTotals(ctx, userId, offerKey(offerId), { totalTrades: 1 }, {}, now);

/** A review the member received: its rating in the average, and listed for their profile (once per review). */
export const countReview = (ctx: Pick<TradeContext, 'parties' | 'relay'>, userId: string, reviewId: string, rating: number, at: Date, now: Date) =>
  addToTotals(ctx, userId, `r${reviewId}`, { ratingSum: rating, totalReviewers: 1 }, { [`received.${reviewId}`]: at }, now);

/** Review ids the member received, newest first. */
export async function receivedReviewIds(ctx: Pick<TradeContext, 'parties'>, userId: string): Promise<string[]> {
  const doc = await ctx.parties.findOne({ _id: userId }, { projection: { received: 1 } });
  return Object.entries(doc?.received ?? {})
    .sort(([, a], [, b]) => +new Date(b) - +new Date(a))
    .map(([id]) => id);
}
