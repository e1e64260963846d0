import { eventRegistry, WISHLIST_ENDED_MAX_USERS, type EventEnvelope, type WishlistEndedEvent } from '@ruilplein/contracts';
import { createEvent } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import type { ListingDoc } from '../listings/model.ts';
import { WISHED } from './model.ts';

/** Why a listing ended for the members who wished for it, and who they are. */
export interface WishlistEnd {
  reason: WishlistEndedEvent['reason'];
  userIds: readonly string[];
}

/**
 * The members with `listingId` on their wishlist, less `except` (a trade's own parties). Read just
 * before the write that ends the listing: one who adds it in between is not told.
 */
export async function wishersOf(ctx: Pick<ListingContext, 'wishlist'>, listingId: string, except: ReadonlySet<string> = new Set()): Promise<string[]> {
  const entries = await ctx.wishlist.find({ listingId, ...WISHED }, { projection: { userId: 1 } }).toArray();
  return [...new Set(entries.map((e) => e.userId))].filter((id) => !except.has(id));
}

/** `listing.wishlist.ended` for the listing as written, its wishers split into events of a bounded size. */
export function wishlistEndedEvents(after: ListingDoc, end: WishlistEnd): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  for (let i = 0; i < end.userIds.length; i += WISHLIST_ENDED_MAX_USERS) {
    events.push(
      createEvent(eventRegistry, 'listing.wishlist.ended', {
        listingId: after._id,
        title: after.title,
        reason: end.reason,
        userIds: end.userIds.slice(i, i + WISHLIST_ENDED_MAX_USERS),
        version: after.version,
        at: after.updatedAt.toISOString(),
      }),
    );
  }
  return events;
}
