import { eventRegistry, LISTING_MESSAGES, WISHLIST_MESSAGES } from '@ruilplein/contracts';
import { now as platformNow, badRequest, createEvent, notFound, outboxFields, type HandlerPart } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import type { ListingContext } from '../listings/context.ts';
import { listingsByIds, LIVE } from '../listings/model.ts';
import { canSee, hiddenFrom, viewerOf } from '../listings/visibility.ts';
import { WISHED } from './model.ts';

/** The wishlist: listings a member keeps an eye on. Only listings they may see; never their own. */
export function wishlistHandlers(ctx: ListingContext) {
  return {
    wishlist: {
      add: async ({ principal, params }) => {
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        const listingId = params.id.toLowerCase();
        const listing = await ctx.listings.findOne({ _id: listingId, ...LIVE }, { projection: { ownerId: 1, active: 1, isPremium: 1, createdAt: 1 } });
        // A listing of a member blocked either way is not found, as on its page.
        if (!listing || !canSee(listing, viewer, now) || (await hiddenFrom(ctx, viewer, listing.ownerId))) throw notFound(LISTING_MESSAGES.notFound);
        if (listing.ownerId === principal.userId) throw badRequest(WISHLIST_MESSAGES.ownListing);
        // Taken off before: the tombstone comes back as the entry, with the next version.
        const removed = await ctx.wishlist.findOne({ userId: principal.userId, listingId, removedAt: { $exists: true } }, { projection: { version: 1 } });
        if (removed) {
          const version = (removed.version ?? 1) + 1;
          const event = createEvent(eventRegistry, 'listing.wishlist.added', { listingId, userId: principal.userId, version, at: now.toISOString() });
          const revived = await ctx.wishlist.updateOne({ _id: removed._id, removedAt: { $exists: true } }, { $unset: { removedAt: '' }, $set: { createdAt: now, version, ...outboxFields(event) } });
          if (revived.modifiedCount === 1) {
            ctx.relay.kick(ctx.wishlist.collectionName, removed._id);
            return { message: WISHLIST_MESSAGES.added };
          }
          // Revived or swept by someone else meanwhile: the upsert below settles it.
        }
        const _id = new Types.ObjectId().toHexString();
        const event = createEvent(eventRegistry, 'listing.wishlist.added', { listingId, userId: principal.userId, version: 1, at: now.toISOString() });
        try {
          // Twice is once: an existing entry stays as it is, and only a new one is announced.
          const result = await ctx.wishlist.updateOne(
            { userId: principal.userId, listingId },
            { $setOnInsert: { _id, createdAt: now, ...outboxFields(event) } },
            { upsert: true },
          );
          if (result.upsertedCount === 1) ctx.relay.kick(ctx.wishlist.collectionName, _id);
        } catch (err) {
          // The same entry added at the same moment by a second request.
          if ((err as { code?: number }).code !== 11000) throw err;
        }
        return { message: WISHLIST_MESSAGES.added };
      },
      exists: async ({ principal, params }) => {
        const entry = await ctx.wishlist.findOne({ userId: principal.userId, listingId: params.id.toLowerCase(), ...WISHED }, { projection: { _id: 1 } });
        return { isWishlisted: !!entry };
      },
      delete: async ({ principal, params }) => {
        const listingId = params.listingId.toLowerCase();
        const entry = await ctx.wishlist.findOne({ userId: principal.userId, listingId, ...WISHED }, { projection: { version: 1 } });
        if (!entry) throw notFound(WISHLIST_MESSAGES.notOnList);
        // The entry stays as a tombstone until its removal is published (the sweeper deletes it then).
        const now = platformNow();
        const version = (entry.version ?? 1) + 1;
        const event = createEvent(eventRegistry, 'listing.wishlist.removed', { listingId, userId: principal.userId, version, at: now.toISOString() });
        const result = await ctx.wishlist.updateOne({ _id: entry._id, ...WISHED }, { $set: { removedAt: now, version, ...outboxFields(event) } });
        if (result.modifiedCount === 0) throw notFound(WISHLIST_MESSAGES.notOnList);
        ctx.relay.kick(ctx.wishlist.collectionName, entry._id);
        return { message: WISHLIST_MESSAGES.removed };
      },
      my: async ({ principal }) => {
        const now = platformNow();
        const viewer = await viewerOf(ctx.members, principal, now);
        const entries = await ctx.wishlist.find({ userId: principal.userId, ...WISHED }).sort({ createdAt: -1, _id: -1 }).toArray();
        if (!entries.length) return [];
        const listings = await listingsByIds(ctx.listings, entries.map((e) => e.listingId), LIVE);
        const byId = new Map(listings.map((l) => [l._id, l]));
        // A listing that is gone, inactive or (no longer) visible drops out; the entry stays until removed.
        return entries.flatMap((entry) => {
          const listing = byId.get(entry.listingId);
          if (!listing || !listing.active || !canSee(listing, viewer, now)) return [];
          const cover = listing.photos[0];
          return [
            {
              id: entry._id,
              createdAt: new Date(entry.createdAt).toISOString(),
              listing: {
                id: listing._id,
                title: listing.title,
                description: listing.description,
                imageUrl: cover?.imageUrl ?? '',
                thumbnailUrl: cover?.thumbnailUrl ?? '',
                placeholder: listing.placeholder,
              },
            },
          ];
        });
      },
    },
  } satisfies HandlerPart<'listing'>;
}
