// What the listing service announces on NATS (`listing.>`). Payloads are schemas of their own, not
// HTTP answers: other services project them, so they change only compatibly.
import { z } from 'zod';
import { defineEvents } from '../events.ts';
import { LISTING_TYPES } from './rules.ts';

/**
 * A category as announced. `version` counts its announced changes (1 when created); a projection
 * ignores an event with a lower version than the one it holds.
 */
export const CategoryEventSchema = z.object({
  id: z.string(),
  version: z.number().int().positive(),
  name: z.string().min(1).max(60),
  icon: z.string().min(1).max(60),
  isPremium: z.boolean(),
});
export type CategoryEvent = z.infer<typeof CategoryEventSchema>;

/**
 * A listing as announced: what a search card, a trade and the statistics need, never the full
 * description or the photos. `version` counts its changes (1 when created). Its place is its
 * owner's (a listing moves with its owner); absent while the owner has none.
 */
export const ListingEventSchema = z.object({
  id: z.string(),
  version: z.number().int().positive(),
  ownerId: z.string(),
  /** Listed (in search, in offers): false once traded, or when its owner is banned or deleted. */
  active: z.boolean(),
  title: z.string(),
  /** The description's first 200 characters. */
  excerpt: z.string(),
  listingType: z.enum(LISTING_TYPES),
  acceptsItems: z.boolean(),
  isPremium: z.boolean(),
  initialValue: z.number().nullable(),
  categoryIds: z.array(z.string()),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  placeholder: z.string(),
  createdAt: z.iso.datetime(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
});
export type ListingEvent = z.infer<typeof ListingEventSchema>;

export const ListingDeletedEventSchema = z.object({ id: z.string(), version: z.number().int().positive(), ownerId: z.string() });
export type ListingDeletedEvent = z.infer<typeof ListingDeletedEventSchema>;

/**
 * How many active listings a member has now (their public statistics). `version` is the member's
 * listing counter version in the listing service, so an older count never replaces a newer one.
 */
export const ActiveListingsEventSchema = z.object({ userId: z.string(), version: z.number().int().positive(), activeListings: z.number().int().min(0) });
export type ActiveListingsEvent = z.infer<typeof ActiveListingsEventSchema>;

/**
 * A member put a listing on their wishlist (interest, for 'Trending in je buurt'). One entry per
 * member and listing; `version` counts that entry's adds and removals (1 for the first add, 3 for
 * an add after a removal), so a projection keeps the newest; events from before the field existed
 * read as 1.
 */
export const WishlistAddedEventSchema = z.object({ listingId: z.string(), userId: z.string(), version: z.number().int().positive().default(1), at: z.iso.datetime() });
export type WishlistAddedEvent = z.infer<typeof WishlistAddedEventSchema>;

/**
 * A member took a listing off their wishlist (the demand preview and swap chains stop counting
 * it). `version` is the entry's, as in `listing.wishlist.added`.
 */
export const WishlistRemovedEventSchema = z.object({ listingId: z.string(), userId: z.string(), version: z.number().int().positive(), at: z.iso.datetime() });
export type WishlistRemovedEvent = z.infer<typeof WishlistRemovedEventSchema>;

/** Why a wishlisted listing is no longer to be had. */
export const WISHLIST_END_REASONS = ['traded', 'removed'] as const;

/**
 * A listing on members' wishlists ended: traded (a completed trade) or removed (deleted by its
 * owner, or with the owner's account), for the notifications of those members. Published once per
 * listing, in the same write as the change that ends it; a listing with many wishers is announced
 * in several events of at most WISHLIST_ENDED_MAX_USERS members each. `version` is the listing's.
 * The trade's own parties are left out of a 'traded' one.
 */
export const WishlistEndedEventSchema = z.object({
  listingId: z.string(),
  title: z.string(),
  reason: z.enum(WISHLIST_END_REASONS),
  userIds: z.array(z.string()).min(1),
  version: z.number().int().positive(),
  at: z.iso.datetime(),
});
export type WishlistEndedEvent = z.infer<typeof WishlistEndedEventSchema>;

/** Members per `listing.wishlist.ended` event: keeps each well under NATS's message size. */
export const WISHLIST_ENDED_MAX_USERS = 1000;

/**
 * A new listing (when created, and again when its head start ended) matched members' saved
 * searches: each member once per listing however many of their searches match (the first one
 * named, the strongest alert). Published through the outbox of the match document of that listing
 * and pass, which only one replica inserts, so replicas and redeliveries announce it once; a
 * member alerted when it was created is not in the second pass. `version` is always 1; `alert`
 * says how the member wants mail about this search.
 */
export const SavedSearchMatchedEventSchema = z.object({
  listingId: z.string(),
  title: z.string(),
  /** The members it matched, each once (at most SAVED_SEARCH_MATCHED_MAX_MEMBERS; more go in further events). */
  matches: z
    .array(
      z.object({
        userId: z.string(),
        /** From the member's place, one decimal; null when either place is unknown. */
        distanceKm: z.number().nullable(),
        /** The first of their searches with the strongest alert among those that matched. */
        searchId: z.string(),
        searchName: z.string(),
        alert: z.enum(['direct', 'digest', 'off']),
      }),
    )
    .min(1),
  version: z.number().int().positive(),
  at: z.iso.datetime(),
});
export type SavedSearchMatchedEvent = z.infer<typeof SavedSearchMatchedEventSchema>;

/** Members per `listing.saved-search.matched` event: one store write queues them all, well under NATS's message size. */
export const SAVED_SEARCH_MATCHED_MAX_MEMBERS = 1000;

/**
 * A member's saved searches after a change (created, edited, deleted): all of them, so each
 * replica's in-memory alerts replace the member's set when `version` (the member's saved-search
 * document's) is newer. Filters as the member saved them.
 */
export const SavedSearchesChangedEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  searches: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      alert: z.enum(['direct', 'digest', 'off']),
      createdAt: z.iso.datetime(),
      filters: z.object({
        q: z.string().optional(),
        distanceKm: z.number().optional(),
        minValue: z.number().optional(),
        maxValue: z.number().optional(),
        listingType: z.enum(LISTING_TYPES).optional(),
        premium: z.boolean().optional(),
        categoryIds: z.array(z.string()).optional(),
      }),
    }),
  ),
});
export type SavedSearchesChangedEvent = z.infer<typeof SavedSearchesChangedEventSchema>;

export const listingEvents = defineEvents('listing', {
  'listing.category.created': CategoryEventSchema,
  'listing.listing.created': ListingEventSchema,
  'listing.listing.updated': ListingEventSchema,
  'listing.listing.deleted': ListingDeletedEventSchema,
  'listing.owner.counted': ActiveListingsEventSchema,
  'listing.wishlist.added': WishlistAddedEventSchema,
  'listing.wishlist.ended': WishlistEndedEventSchema,
  'listing.wishlist.removed': WishlistRemovedEventSchema,
  'listing.saved-search.changed': SavedSearchesChangedEventSchema,
  'listing.saved-search.matched': SavedSearchMatchedEventSchema,
});
