import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { recount, type ModerationContext } from '../context.ts';

/**
 * The listings projection: whose each listing is and whether it is active (`listing.listing.*`),
 * applied only when newer. It checks the listing a report names and counts the active listings
 * for the dashboard.
 */
export function consumeListings(bus: Bus, db: Connection, ctx: ModerationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'moderation-listings',
    registry: eventRegistry,
    subjects: ['listing.listing.created', 'listing.listing.updated', 'listing.listing.deleted'],
    db,
    logger,
    handler: async (event) => {
      const { id, version, ownerId } = event.payload;
      const set = event.type === 'listing.listing.deleted' ? { ownerId, active: false, deleted: true } : { ownerId, active: event.payload.active };
      await applyIfNewer(ctx.listings, id, version, set);
      const listing = await ctx.listings.findOne({ _id: id });
      await recount(ctx, ctx.listings, id, !!listing && listing.active && !listing.deleted, 'activeListings');
    },
  });
}
