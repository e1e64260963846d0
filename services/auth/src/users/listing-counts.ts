import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, exists, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import { NOT_BEING_DELETED, userIdOf, type UserCollection } from '../accounts/model.ts';
import { STATS_FROM_LISTINGS_ON_INSERT, type UserStatsCollection } from './stats.ts';

/**
 * A member's active listings for their public statistics: the listing service announces each new
 * count (`listing.owner.counted`) with its per-member version; the count is set only when newer, so
 * a late or repeated event never moves it back. Counts of accounts that are gone (or being
 * deleted) are dropped: their stats record went with them.
 */
export function consumeListingCounts(deps: { bus: Bus; db: Connection; logger: Logger; users: UserCollection; stats: UserStatsCollection }): Promise<Worker> {
  const { users, stats } = deps;
  return consume(deps.bus, {
    durable: 'auth-listing-counts',
    registry: eventRegistry,
    subjects: ['listing.owner.counted'],
    db: deps.db,
    logger: deps.logger,
    handler: async (event) => {
      const { userId, version, activeListings } = event.payload;
      if (!Types.ObjectId.isValid(userId) || !(await exists(users, { _id: userIdOf(userId), ...NOT_BEING_DELETED }))) return;
      await applyIfNewer(stats, userId, version, { activeListings, activeListingsAt: new Date(event.occurredAt) }, { field: 'activeListingsVersion', setOnInsert: STATS_FROM_LISTINGS_ON_INSERT });
    },
  });
}
