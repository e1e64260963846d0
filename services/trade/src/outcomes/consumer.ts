import { eventRegistry, offerListingIds, offerParticipants } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { settleCompleted } from '../offers/lifecycle.ts';
import { countReview } from '../offers/parties.ts';
import { recordOfferFacts } from '../reliability/facts.ts';

/**
 * The trade service's own events, read back: what a change of an offer or a review changes
 * elsewhere (the parties' reliability facts, their totals, the other offers on traded listings)
 * happens also when the request that made it died right after its write. Every step counts once
 * (`counted`), sets what it set before, or finds nothing left to do.
 */
export function consumeOutcomes(bus: Bus, db: Connection, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'trade-outcomes',
    registry: eventRegistry,
    subjects: ['trade.offer.created', 'trade.offer.accepted', 'trade.offer.rejected', 'trade.offer.cancelled', 'trade.offer.confirmed', 'trade.offer.completed', 'trade.review.added'],
    db,
    logger,
    handler: async (event) => {
      const now = ctx.clock();
      if (event.type === 'trade.review.added') {
        const review = event.payload;
        await countReview(ctx, review.revieweeId, review.id, review.rating, new Date(review.at), now);
        return;
      }
      const offer = event.payload;
      await recordOfferFacts(ctx, offer);
      if (event.type === 'trade.offer.completed') await settleCompleted(ctx, { _id: offer.id, members: offerParticipants(offer).map((p) => p.userId), listingIds: offerListingIds(offer) }, now);
    },
  });
}
