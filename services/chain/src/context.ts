import { ChainEngine } from '@ruilplein/chains';
import { blockProjection, collection, memberProjection, type BlockProjection, type Connection, type Logger, type MemberProjection } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/**
 * A listing as the chain service keeps it (listing.listing.*): what the matcher needs and the
 * title the answers show. `gone`: deleted, or ended on wishlists (traded or removed), for good.
 */
export interface ListingDoc {
  _id: string;
  version?: number;
  ownerId?: string;
  active?: boolean;
  premiumOnly?: boolean;
  title?: string;
  createdAt?: Date;
  latitude?: number;
  longitude?: number;
  gone?: true;
}

/** One member's wish for one listing (listing.wishlist.added / removed), by the entry's version. */
export interface WishDoc {
  /** `<userId>:<listingId>` */
  _id: string;
  userId: string;
  listingId: string;
  version: number;
  on: boolean;
}

/**
 * A chain proposed as a trade offer: its listings stay out of other suggestions until the offer
 * ends (rejected, cancelled, completed), across restarts. `offerId` once trade answered.
 */
export interface ProposalDoc {
  _id: string;
  offerId?: number;
  ended?: boolean;
  at: Date;
}

export type ChainMembers = MemberProjection<'firstName' | 'place' | 'roles'>;

/** A change to settle again into an engine being rebuilt (graph/state.ts `resync`). */
export type Replay = (engine: ChainEngine) => unknown;

export interface ChainContext {
  engine: ChainEngine;
  /** While a rebuild runs: the changes settled meanwhile, replayed into the new engine before it takes over. */
  replays?: Replay[];
  listings: mongo.Collection<ListingDoc>;
  wishes: mongo.Collection<WishDoc>;
  proposals: mongo.Collection<ProposalDoc>;
  /** A partial projection by design (first name, place, roles): not named `members` (infra/chaos compares those to auth's users). */
  members: ChainMembers;
  blocks: BlockProjection;
  logger: Logger;
}

export const COLLECTIONS = { listings: 'chain_listings', wishes: 'chain_wishes', proposals: 'chain_proposals', members: 'chain_members', blocks: 'chain_blocks' } as const;

export function chainContext(db: Connection, logger: Logger): ChainContext {
  return {
    engine: new ChainEngine(),
    listings: collection<ListingDoc>(db, COLLECTIONS.listings),
    wishes: collection<WishDoc>(db, COLLECTIONS.wishes),
    proposals: collection<ProposalDoc>(db, COLLECTIONS.proposals),
    members: memberProjection(db, { fields: ['firstName', 'place', 'roles'], collection: COLLECTIONS.members }),
    blocks: blockProjection(db, { collection: COLLECTIONS.blocks }),
    logger,
  };
}
