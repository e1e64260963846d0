import { isPremiumAt, SEARCH_DEFAULT_DISTANCE_KM, type MembershipState } from '@ruilplein/contracts';
import { chord2ForKm, isPlace, toVec } from './geo.ts';
import type { ListingState } from './listings.ts';
import { HEAD_START_MS, type CategoryNames, type SearchFilters } from './query.ts';
import { analyze, FIELD, parseQuery, textScore } from './text.ts';

/** Who searches: their id, their own place (none: no distance filter) and what the membership rules read. */
export interface Viewer extends MembershipState {
  id: string;
  latitude?: number | null;
  longitude?: number | null;
}

/** The filters of GET /api/listing without the page (and the owners the service leaves out). */
export type MatchFilters = Omit<SearchFilters, 'page' | 'take'>;

const cents = (euro: number) => Math.round(euro * 100);

/**
 * Whether one listing is among what one search finds, for one viewer at `now` (ms or a Date on the
 * platform's clock): the same rules as `SearchEngine.search` without the index, for a listing on its
 * own (saved-search alerts). The arithmetic is the engine's (squared chords, whole cents), so both
 * agree on the edges too; the property test holds them to it. Keywords (`filters.q`) follow the
 * engine's text rule (text.ts) over the title, the excerpt and the names of the listing's
 * categories as `categories` gives them.
 */
export function matches(filters: MatchFilters, listing: ListingState, viewer: Viewer, now: number | Date, categories?: CategoryNames): boolean {
  if (!listing.active) return false;
  if (filters.excludeOwners?.has(listing.ownerId)) return false;
  // Premium-only and new listings: premium members and their owner only (spec 2, the six-hour head start).
  if (listing.ownerId !== viewer.id && !isPremiumAt(viewer, now)) {
    const at = typeof now === 'number' ? now : now.getTime();
    if (listing.isPremium || new Date(listing.createdAt).getTime() > at - HEAD_START_MS) return false;
  }
  // Within the distance of one's own place; without one, anywhere (listings without a place too).
  if (!viewer.deleted && isPlace(viewer.latitude, viewer.longitude)) {
    if (!isPlace(listing.latitude, listing.longitude)) return false;
    const c = toVec(viewer.latitude!, viewer.longitude!);
    const v = toVec(listing.latitude!, listing.longitude!);
    const dx = v.x - c.x;
    const dy = v.y - c.y;
    const dz = v.z - c.z;
    if (dx * dx + dy * dy + dz * dz > chord2ForKm(filters.distanceKm ?? SEARCH_DEFAULT_DISTANCE_KM)) return false;
  }
  // A listing without a value passes unless the minimum is above 0.
  const min = filters.minValue !== undefined && filters.minValue > 0 ? cents(filters.minValue) : undefined;
  if (listing.initialValue === null || listing.initialValue === undefined) {
    if (min !== undefined) return false;
  } else {
    const value = cents(listing.initialValue);
    if ((min !== undefined && value < min) || (filters.maxValue !== undefined && value > cents(filters.maxValue))) return false;
  }
  if (filters.premium && !listing.isPremium) return false;
  if (filters.categoryIds.length && !listing.categoryIds.some((id) => filters.categoryIds.includes(id))) return false;
  if (filters.listingType && listing.listingType !== filters.listingType) return false;
  if (filters.barterMode === 'services_only' && (listing.listingType !== 'service' || listing.acceptsItems)) return false;
  if (filters.barterMode === 'services_or_items' && (listing.listingType !== 'service' || !listing.acceptsItems)) return false;
  if (filters.q) {
    const query = parseQuery(filters.q);
    if (query.length) {
      const names = listing.categoryIds.flatMap((id) => analyze(categories?.get(id)?.name ?? '').terms);
      const fields = [
        { field: FIELD.title, terms: analyze(listing.title).terms },
        { field: FIELD.excerpt, terms: analyze(listing.excerpt).terms },
        { field: FIELD.category, terms: names },
      ];
      if (textScore(query, fields) === 0) return false;
    }
  }
  return true;
}
