import { DEFAULT_CRATE, inventoryQueries, USER_MESSAGES, type InventoryItem } from '@ruilplein/contracts';
import { now as platformNow, notFound, serveQuery, type HandlerPart, type Bus, type Logger, type Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { listingsByIds, type ListingDoc } from '../listings/model.ts';
import { canSee, hiddenFrom, viewerOf, type Viewer } from '../listings/visibility.ts';

export const CRATE_DESCRIPTION = 'Het krat bier dat ieder lid standaard in zijn inventaris heeft. Altijd beschikbaar om mee te ruilen.';

/** The default crate in a member's inventory: the same for everyone, owned by that member. */
export const crateOf = (userId: string): InventoryItem => ({
  listingID: DEFAULT_CRATE.listingID,
  userID: userId,
  title: DEFAULT_CRATE.title,
  description: CRATE_DESCRIPTION,
  imageUrl: DEFAULT_CRATE.imageUrl,
  thumbnailUrl: DEFAULT_CRATE.imageUrl,
  isDefault: true,
});

const itemOf = (doc: ListingDoc): InventoryItem => ({
  listingID: doc._id,
  userID: doc.ownerId,
  title: doc.title,
  description: doc.description,
  imageUrl: doc.photos[0]?.imageUrl ?? '',
  thumbnailUrl: doc.photos[0]?.thumbnailUrl ?? '',
  isDefault: false,
});

/**
 * A member's tradeable items: their active listings (those `viewer` may see; all of them without a
 * viewer, for another service) newest first, then the crate; only the crate between members who
 * blocked each other. A member the service does not know,
 * or whose account is gone, has no inventory (404).
 */
export async function inventoryOf(ctx: ListingContext, userId: string, viewer?: Viewer, now = platformNow()): Promise<InventoryItem[]> {
  const id = userId.toLowerCase();
  const member = await ctx.members.byId(id);
  if (!member || member.deleted) throw notFound(USER_MESSAGES.userNotFound);
  // Between members who blocked each other, the listings are not found, as in search; the crate is no listing.
  if (viewer && (await hiddenFrom(ctx, viewer, id))) return [crateOf(id)];
  const docs = await listingsByIds(ctx.listings, (await ctx.counter.ids(id)).active, { ownerId: id, active: true });
  return [...docs.filter((d) => !viewer || canSee(d, viewer, now)).map(itemOf), crateOf(id)];
}

export function inventoryHandlers(ctx: ListingContext) {
  return {
    listing: {
      inventory: async ({ principal, params }) => {
        const now = platformNow();
        return inventoryOf(ctx, params.userId, await viewerOf(ctx.members, principal, now), now);
      },
    },
  } satisfies HandlerPart<'listing'>;
}

/** `rpc.listing.inventory.get`: for the trade service's checks, every active listing of the member plus the crate. */
export function inventoryQueriesWorker(bus: Bus, ctx: ListingContext, logger: Logger): Worker {
  return serveQuery(
    bus,
    'listing',
    inventoryQueries.get,
    async ({ userId, viewerId }) => {
      const now = platformNow();
      // Roles from the projection only: a query carries no token.
      return inventoryOf(ctx, userId, viewerId ? await viewerOf(ctx.members, { userId: viewerId.toLowerCase(), roles: [], tokenVersion: 0 }, now) : undefined, now);
    },
    logger,
  );
}
