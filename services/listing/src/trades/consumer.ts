import { eventRegistry, offerListingIds, offerParticipants } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { changeListing } from '../listings/lifecycle.ts';
import { wishersOf, type WishlistEnd } from '../wishlist/ended.ts';

/**
 * A completed trade (`trade.offer.completed`): every listing it held is traded, so it leaves search
 * and inventories. Each becomes inactive (announced, `listing.listing.updated`, and to those who
 * wished for it `listing.wishlist.ended` 'traded' in the same write), and its place
 * among its owner's active listings is given back. Only a listing of one of the trade's members
 * (two, or three for a swap chain) is touched. Safe to repeat: an inactive listing and a returned place stay as they are.
 */
export async function deactivateTradedListings(ctx: ListingContext, trade: { memberIds: readonly string[]; listingIds: readonly string[] }): Promise<number> {
  const parties = new Set(trade.memberIds);
  let deactivated = 0;
  for (const id of new Set(trade.listingIds)) {
    // Those who wished for it hear it was traded (the parties themselves know).
    const wishlistEnd: WishlistEnd = { reason: 'traded', userIds: await wishersOf(ctx, id, parties) };
    const changed = await changeListing(ctx, id, (doc) => (doc.active && parties.has(doc.ownerId) ? { set: { active: false }, wishlistEnd } : undefined));
    if (!changed || !parties.has(changed.before.ownerId)) continue;
    if (changed.after !== changed.before) deactivated++;
    await ctx.counter.release(changed.before.ownerId, [id]);
  }
  return deactivated;
}

export function consumeTrades(bus: Bus, db: Connection, ctx: ListingContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'listing-trades',
    registry: eventRegistry,
    subjects: ['trade.offer.completed'],
    db,
    logger,
    handler: async (event) => {
      // Of either event version: the members and every listing (older events left the one it was made on out of listingIds).
      const memberIds = offerParticipants(event.payload).map((p) => p.userId);
      const deactivated = await deactivateTradedListings(ctx, { memberIds, listingIds: offerListingIds(event.payload) });
      if (deactivated) logger.info({ offerId: event.payload.id, deactivated }, 'traded listings deactivated');
    },
  });
}
