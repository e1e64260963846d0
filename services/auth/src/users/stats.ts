import type { PublicStats, ReliabilityFacts } from '@ruilplein/contracts';
import { collection, type Connection } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/**
 * Each member's trade statistics, a projection fed by other services' events (trades completed,
 * reviews received, listings activated or closed); until the first arrives there is no document
 * and every figure is 0. Each figure is an absolute value its owner announces with a per-member
 * version, set only when its event is newer: the active-listing count (`activeListingsVersion`, the
 * listing service's counter version, see listing-counts.ts) and the trade totals
 * (`tradeStatsVersion`, the trade service's, see trade-counts.ts), so events arriving out of order
 * cannot move them back. The average is kept as sum and count (FerretDB has no `$avg`).
 */
export interface UserStatsDoc {
  /** The member's user id. */
  _id: string;
  totalTrades: number;
  ratingSum: number;
  totalReviewers: number;
  activeListings: number;
  /** When the count applied was made. */
  activeListingsAt?: Date;
  /** Version of the `listing.owner.counted` event applied last. */
  activeListingsVersion?: number;
  /** When the trade totals applied were made. */
  tradeStatsAt?: Date;
  /** Version of the `trade.member.counted` event applied last. */
  tradeStatsVersion?: number;
  /** The trade service's reliability facts of the member (absent until their first offer changed). */
  reliability?: ReliabilityFacts;
}

export const userStatsCollection = (db: Connection) => collection<UserStatsDoc>(db, 'user_stats');
export type UserStatsCollection = mongo.Collection<UserStatsDoc>;

/**
 * What a record starts with besides the figures of the event that creates it (the figures of the
 * other source start at 0): `$setOnInsert` of that event's write.
 */
export const STATS_FROM_LISTINGS_ON_INSERT = { totalTrades: 0, ratingSum: 0, totalReviewers: 0 } as const;
export const STATS_FROM_TRADES_ON_INSERT = { activeListings: 0 } as const;

export function toPublicStats(doc: UserStatsDoc | null): PublicStats {
  if (!doc) return { totalTrades: 0, averageRating: 0, totalReviewers: 0, activeListings: 0 };
  return {
    totalTrades: doc.totalTrades,
    averageRating: doc.totalReviewers ? Math.round((doc.ratingSum / doc.totalReviewers) * 100) / 100 : 0,
    totalReviewers: doc.totalReviewers,
    activeListings: doc.activeListings,
  };
}
