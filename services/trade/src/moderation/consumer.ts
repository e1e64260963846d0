import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { closeOffersOfMember } from '../offers/lifecycle.ts';

/**
 * A ban or an automatic block (`moderation.user.banned|blocked`): the member's open offers
 * (Pending or Accepted) are cancelled, announced, so the other party's chat closes. Safe to repeat.
 */
export function consumeModeration(bus: Bus, db: Connection, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'trade-moderation',
    registry: eventRegistry,
    subjects: ['moderation.user.banned', 'moderation.user.blocked'],
    db,
    logger,
    handler: async (event) => {
      const cancelled = await closeOffersOfMember(ctx, event.payload.userId, ctx.clock());
      if (cancelled) logger.info({ userId: event.payload.userId, cancelled }, 'open offers of a blocked member cancelled');
    },
  });
}
