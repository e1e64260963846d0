import type { InventoryItem } from '@ruilplein/contracts';
import type { Connection, Logger, OutboxEntry, OutboxRelay } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { MemberDoc } from './members/model.ts';
import type { OfferDoc } from './offers/model.ts';
import type { PartyDoc } from './offers/parties.ts';
import type { ReviewDoc } from './reviews/model.ts';

/** The outbox fields the relay reads (service-kit outbox.ts), on every document that announces. */
export interface WithOutbox {
  outbox?: Record<string, OutboxEntry>;
  outboxPending?: true;
}

/** The counter the offer numbers come from (one document, `$inc`). */
export interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * What the offer, review and consumer code share. Every collection is read by `_id` only (the one
 * lookup FerretDB answers from an index): an offer by its number, a member's offers through the
 * numbers their party document lists, a review by `<offer>:<reviewer>`.
 */
export interface TradeContext {
  offers: mongo.Collection<OfferDoc>;
  parties: mongo.Collection<PartyDoc>;
  reviews: mongo.Collection<ReviewDoc>;
  members: mongo.Collection<MemberDoc>;
  counters: mongo.Collection<CounterDoc>;
  /** A member's tradeable items, from the listing service (`rpc.listing.inventory.get`); with a viewer, those the viewer may see. */
  inventory(userId: string, viewerId?: string): Promise<InventoryItem[]>;
  relay: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
  /** Now (tests move it across the Dutch day boundary). */
  clock(): Date;
}

export const COLLECTIONS = { offers: 'offers', parties: 'trade_parties', reviews: 'reviews', members: 'members', counters: 'counters' } as const;

/** The collections of one database, typed. */
export function tradeCollections(db: Connection) {
  return {
    offers: db.collection<OfferDoc>(COLLECTIONS.offers) as unknown as mongo.Collection<OfferDoc>,
    parties: db.collection<PartyDoc>(COLLECTIONS.parties) as unknown as mongo.Collection<PartyDoc>,
    reviews: db.collection<ReviewDoc>(COLLECTIONS.reviews) as unknown as mongo.Collection<ReviewDoc>,
    members: db.collection<MemberDoc>(COLLECTIONS.members) as unknown as mongo.Collection<MemberDoc>,
    counters: db.collection<CounterDoc>(COLLECTIONS.counters) as unknown as mongo.Collection<CounterDoc>,
  };
}

/** Ids per `$in` (the local store's `_id` lookup takes up to 500 at once). */
export const IDS_PER_READ = 500;

/** Documents with these ids (and `filter`), in chunks the store reads by its `_id` index. */
export async function byIds<T extends { _id: string | number }>(collection: mongo.Collection<T>, ids: readonly T['_id'][], filter: mongo.Filter<T> = {}): Promise<T[]> {
  const docs: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    const chunk = ids.slice(i, i + IDS_PER_READ);
    docs.push(...((await collection.find({ _id: { $in: chunk }, ...filter } as mongo.Filter<T>).toArray()) as T[]));
  }
  return docs;
}

/** Members by id (names and pictures for an answer), one read. */
export async function membersByIds(ctx: Pick<TradeContext, 'members'>, ids: Iterable<string>): Promise<Map<string, MemberDoc>> {
  const unique = [...new Set(ids)];
  return new Map((await byIds(ctx.members, unique)).map((m) => [m._id, m]));
}
