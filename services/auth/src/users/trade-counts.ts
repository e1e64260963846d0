import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, exists, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import { NOT_BEING_DELETED, userIdOf, type UserCollection } from '../accounts/model.ts';
import { STATS_FROM_TRADES_ON_INSERT, type UserStatsCollection } from './stats.ts';

/**
 * A member's trade statistics for their public profile: the trade service announces their totals
 * (`trade.member.counted`: completed trades, sum and count of ratings received) with its
 * per-member version; they are set only when newer, so a late or repeated event never moves them
 * back. With them come the member's reliability facts (the score is computed from them when asked).
 * Counts of accounts that are gone (or being deleted) are dropped, as listing-counts.ts does.
 */
export function consumeTradeCounts(deps: { bus: Bus; db: Connection; logger: Logger; users: UserCollection; stats: UserStatsCollection }): Promise<Worker> {
  const { users, stats } = deps;
  return consume(deps.bus, {
    durable: 'auth-trade-counts',
    registry: eventRegistry,
    subjects: ['trade.member.counted'],
    db: deps.db,
    logger: deps.logger,
    handler: async (event) => {
      const { userId, version, totalTrades, ratingSum, totalReviewers, reliability } = event.payload;
      if (!Types.ObjectId.isValid(userId) || !(await exists(users, { _id: userIdOf(userId), ...NOT_BEING_DELETED }))) return;
      await applyIfNewer(stats, userId, version, { totalTrades, ratingSum, totalReviewers, ...(reliability && { reliability }), tradeStatsAt: new Date(event.occurredAt) }, { field: 'tradeStatsVersion', setOnInsert: STATS_FROM_TRADES_ON_INSERT });
    },
  });
}
