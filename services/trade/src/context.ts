import type { InventoryItem } from '@ruilplein/contracts';
import { blockProjection, collection, memberProjection, type BlockProjection, type Connection, type Logger, type MemberProjection, type OutboxRelay } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import { MEMBER_FIELDS, type MemberField } from './members/model.ts';
import type { OfferDoc } from './offers/model.ts';
import type { PartyDoc } from './offers/party-model.ts';
import type { ReviewDoc } from './reviews/model.ts';

/** The counter the offer numbers come from (one document, `$inc`). */
export interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * A listing a trade took (`_id`: the listing id), claimed by the offer's completing confirmation
 * just before it completes: a listing goes in one trade only, whatever the listing service knows yet.
 */
export interface TradedDoc {
  _id: string;
  offerId: number;
  at: Date;
}

/** A listing in an open three-party offer (`_id`: the listing id): in at most one at a time (offers/chain.ts). */
export interface ChainHoldDoc {
  _id: string;
  offerId: number;
  at: Date;
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
  members: MemberProjection<MemberField>;
  /** Who blocked whom (auth's events, on the members durable): no new offer between them. */
  blocks: BlockProjection;
  counters: mongo.Collection<CounterDoc>;
  traded: mongo.Collection<TradedDoc>;
  chainHolds: mongo.Collection<ChainHoldDoc>;
  /** A member's tradeable items, from the listing service (`rpc.listing.inventory.get`); with a viewer, those the viewer may see. */
  inventory(userId: string, viewerId?: string): Promise<InventoryItem[]>;
  relay: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
  /** Now (tests move it across the Dutch day boundary). */
  clock(): Date;
}

export const COLLECTIONS = { offers: 'offers', parties: 'trade_parties', reviews: 'reviews', members: 'members', blocks: 'blocks', counters: 'counters', traded: 'traded_listings', chainHolds: 'chain_listings' } as const;

/** The collections of one database, typed. */
export function tradeCollections(db: Connection) {
  return {
    offers: collection<OfferDoc>(db, COLLECTIONS.offers),
    parties: collection<PartyDoc>(db, COLLECTIONS.parties),
    reviews: collection<ReviewDoc>(db, COLLECTIONS.reviews),
    members: memberProjection(db, { fields: MEMBER_FIELDS, collection: COLLECTIONS.members }),
    blocks: blockProjection(db, { collection: COLLECTIONS.blocks }),
    counters: collection<CounterDoc>(db, COLLECTIONS.counters),
    traded: collection<TradedDoc>(db, COLLECTIONS.traded),
    chainHolds: collection<ChainHoldDoc>(db, COLLECTIONS.chainHolds),
  };
}
