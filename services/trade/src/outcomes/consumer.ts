import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { settleCompleted } from '../offers/lifecycle.ts';
import { countReview } from '../offers/parties.ts';

/**
 * The trade service's own events, read back: what a completion or a review changes elsewhere
 * (the parties' totals, the other offers on traded listings) happens also when the request that
 * made it died right after its write. The request tried it at once already; every step counts
 * once (`counted`) or finds nothing left to do.
 */
export function consumeOutcomes(bus: Bus, db: Connection, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'trade-outcomes',
    registry: eventRegistry,
    subjects: ['trade.offer.completed', 'trade.review.added'],
    db,
    logger,
    handler: async (event) => {
      const now = ctx.clock();
      if (event.type === 'trade.offer.completed') {
        const offer = event.payload;
        await settleCompleted(ctx, { _id: offer.id, senderId: offer.senderId, receiverId: offer.receiverId, listingIds: offer.listingIds }, now);
        return;
      }
      const review = event.payload;
      await countReview(ctx, review.revieweeId, review.id, review.rating, new Date(review.at), now);
    },
  });
}
