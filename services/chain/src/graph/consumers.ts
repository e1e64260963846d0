// The want graph kept from events on the service's durables: listings and wishes (listing's
// stream), members and blocks (auth's). Each handler writes the store first (only when newer),
// then settles the engine from what is stored; one at a time, so the engine sees the stored
// states in the order they were written.
import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Worker } from '@ruilplein/service-kit';
import type { ChainContext } from '../context.ts';
import { settleBlock, settleListing, settleMember, settleWish } from './state.ts';

export function consumeListings(bus: Bus, db: Connection, ctx: ChainContext): Promise<Worker> {
  return consume(bus, {
    durable: 'chain-listings',
    registry: eventRegistry,
    subjects: ['listing.listing.created', 'listing.listing.updated', 'listing.listing.deleted', 'listing.wishlist.added', 'listing.wishlist.removed', 'listing.wishlist.ended'],
    db,
    logger: ctx.logger,
    concurrency: 1,
    handler: async (event) => {
      switch (event.type) {
        case 'listing.listing.created':
        case 'listing.listing.updated': {
          const l = event.payload;
          const place = l.latitude !== undefined && l.longitude !== undefined ? { latitude: l.latitude, longitude: l.longitude } : {};
          await applyIfNewer(
            ctx.listings,
            l.id,
            l.version,
            { ownerId: l.ownerId.toLowerCase(), active: l.active, premiumOnly: l.isPremium, title: l.title, createdAt: new Date(l.createdAt), ...place },
            { unset: 'latitude' in place ? [] : ['latitude', 'longitude'] },
          );
          return settleListing(ctx, l.id);
        }
        case 'listing.listing.deleted':
        case 'listing.wishlist.ended': {
          // For good: a deleted or traded listing never comes back, whatever arrives later.
          const id = event.type === 'listing.listing.deleted' ? event.payload.id : event.payload.listingId;
          await ctx.listings.updateOne({ _id: id }, { $set: { gone: true, active: false } }, { upsert: true });
          return settleListing(ctx, id);
        }
        case 'listing.wishlist.added':
        case 'listing.wishlist.removed': {
          const { userId, listingId, version } = event.payload;
          const user = userId.toLowerCase();
          await applyIfNewer(ctx.wishes, `${user}:${listingId}`, version, { userId: user, listingId, on: event.type === 'listing.wishlist.added' });
          return settleWish(ctx, user, listingId);
        }
      }
    },
  });
}

export function consumeMembers(bus: Bus, ctx: ChainContext): Promise<Worker> {
  return ctx.members.consume(bus, {
    durable: 'chain-members',
    logger: ctx.logger,
    settled: (member) => settleMember(ctx, member._id),
    blocks: { projection: ctx.blocks, changed: (event) => settleBlock(ctx, event.blockerId, event.blockedId) },
  });
}
