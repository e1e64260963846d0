import { eventRegistry } from '@ruilplein/contracts';
import { consume, nowMs, type Bus, type Connection, type Worker } from '@ruilplein/service-kit';
import type { ChainContext } from '../context.ts';
import { settle } from '../graph/state.ts';

/**
 * The offers proposed from chains (trade.offer.* with a `chainId`): while one is open its chain's
 * listings stay reserved; rejected, cancelled or completed, they are released. A created offer
 * whose proposal the service did not record (trade answered after the request timed out) is
 * reserved here.
 */
export function consumeOffers(bus: Bus, db: Connection, ctx: ChainContext): Promise<Worker> {
  return consume(bus, {
    durable: 'chain-offers',
    registry: eventRegistry,
    subjects: ['trade.offer.created', 'trade.offer.rejected', 'trade.offer.cancelled', 'trade.offer.completed'],
    db,
    logger: ctx.logger,
    concurrency: 1,
    handler: async (event) => {
      const { chainId, id: offerId } = event.payload;
      if (!chainId) return;
      if (event.type === 'trade.offer.created') {
        const known = await ctx.proposals.findOne({ _id: chainId });
        if (known?.offerId === offerId) return;
        await ctx.proposals.replaceOne({ _id: chainId }, { offerId, at: new Date(nowMs()) }, { upsert: true });
        settle(ctx, (engine) => engine.reserve(chainId, nowMs()));
        return;
      }
      // Only the proposal of this very offer ends (a newer proposal of the same chain stays).
      const { matchedCount } = await ctx.proposals.updateOne({ _id: chainId, offerId }, { $set: { ended: true } });
      const doc = await ctx.proposals.findOne({ _id: chainId });
      if (matchedCount > 0 || !doc) settle(ctx, (engine) => engine.release(chainId));
    },
  });
}
