import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { deactivateListingsOfBlockedMember } from '../listings/lifecycle.ts';

/**
 * A ban or an automatic block (`moderation.user.banned|blocked`): the member's listings leave
 * search and offers (each announced as inactive) and their places are given back. Safe to repeat.
 */
export function consumeModeration(bus: Bus, db: Connection, ctx: ListingContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'listing-moderation',
    registry: eventRegistry,
    subjects: ['moderation.user.banned', 'moderation.user.blocked'],
    db,
    logger,
    handler: async (event) => {
      const count = await deactivateListingsOfBlockedMember(ctx, event.payload.userId);
      if (count) logger.info({ userId: event.payload.userId, count }, 'listings of a blocked member taken off');
    },
  });
}
