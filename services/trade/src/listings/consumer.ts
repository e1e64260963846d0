import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { cancelPendingHolding } from '../offers/lifecycle.ts';

/**
 * A deleted listing (`listing.listing.deleted`): the Pending offers holding it, made on it or
 * offering it, are cancelled (announced: their chats close). Accepted ones stay: the parties agreed
 * already and may have swapped; they confirm or not. Safe to repeat.
 */
export function consumeListings(bus: Bus, db: Connection, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'trade-listings',
    registry: eventRegistry,
    subjects: ['listing.listing.deleted'],
    db,
    logger,
    handler: async (event) => {
      const { id, ownerId } = event.payload;
      const cancelled = await cancelPendingHolding(ctx, [id], [ownerId], ctx.clock());
      if (cancelled) logger.info({ listingId: id, cancelled }, 'pending offers on a deleted listing cancelled');
    },
  });
}
