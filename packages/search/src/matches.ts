import { isPremiumAt, SEARCH_DEFAULT_DISTANCE_KM, type MembershipState } from '@ruilplein/contracts';
import { chord2ForKm, isPlace, toVec, type Vec3 } from './geo.ts';
import type { ListingState } from './listings.ts';
import { HEAD_START_MS, type CategoryNames, type SearchFilters } from './query.ts';
import { analyze, FIELD, parseQuery, textScore, type QueryWord } from './text.ts';

/** Who searches: their id, their own place (none: no distance filter) and what the membership rules read. */
export interface Viewer extends MembershipState {
  id: string;
  latitude?: number | null;
  longitude?: number | null;
}

/** The filters of GET /api/listing without the page (and the owners the service leaves out). */
export type MatchFilters = Omit<SearchFilters, 'page' | 'take'>;

const cents = (euro: number) => Math.round(euro * 100);

/** One listing prepared once for many searches (saved-search alerts, the demand preview). */
export interface PreparedListing {
  state: ListingState;
  /** Its place as a unit vector (undefined: none). */
  at: Vec3 | undefined;
  /** Its value in cents (undefined: none). */
  value: number | undefined;
  createdMs: number;
  /** Whether its texts (title, excerpt, category names) hold every word of `query`: analysed on the first keyword search, each parsed query (shared by every search with the same text) answered once. */
  hasWords(query: readonly QueryWord[]): boolean;
}

/** One search's filters prepared once (a saved search holds this beside its definition). */
export interface CompiledFilters {
  min: number | undefined;
  max: number | undefined;
  /** Squared chord of the distance (the engine's arithmetic). */
  chord2: number;
  premium: boolean;
  categoryIds: readonly string[];
  listingType: MatchFilters['listingType'];
  barterMode: MatchFilters['barterMode'];
  excludeOwners: MatchFilters['excludeOwners'];
  /** The keywords parsed (undefined: none). */
  query: readonly QueryWord[] | undefined;
}

export function prepareListing(listing: ListingState, categories?: CategoryNames): PreparedListing {
  let fields: { field: number; terms: readonly string[] }[] | undefined;
  const answered = new Map<readonly QueryWord[], boolean>();
  const analysed = () =>
    (fields ??= [
      { field: FIELD.title, terms: analyze(listing.title).terms },
      { field: FIELD.excerpt, terms: analyze(listing.excerpt).terms },
      { field: FIELD.category, terms: listing.categoryIds.flatMap((id) => analyze(categories?.get(id)?.name ?? '').terms) },
    ]);
  return {
    state: listing,
    at: isPlace(listing.latitude, listing.longitude) ? toVec(listing.latitude!, listing.longitude!) : undefined,
    value: listing.initialValue === null || listing.initialValue === undefined ? undefined : cents(listing.initialValue),
    createdMs: new Date(listing.createdAt).getTime(),
    hasWords: (query) => {
      let yes = answered.get(query);
      if (yes === undefined) answered.set(query, (yes = textScore(query, analysed()) > 0));
      return yes;
    },
  };
}

/** Parsed keywords by their text: every search with the same words shares one array, so a listing answers them once (`hasWords`). */
const parsedQueries = new Map<string, QueryWord[]>();
const PARSED_KEPT = 50_000;

function parsedQuery(q: string): QueryWord[] {
  let query = parsedQueries.get(q);
  if (!query) {
    if (parsedQueries.size >= PARSED_KEPT) parsedQueries.clear();
    parsedQueries.set(q, (query = parseQuery(q)));
  }
  return query;
}

export function compileFilters(filters: MatchFilters): CompiledFilters {
  const query = filters.q ? parsedQuery(filters.q) : undefined;
  return {
    min: filters.minValue !== undefined && filters.minValue > 0 ? cents(filters.minValue) : undefined,
    max: filters.maxValue !== undefined ? cents(filters.maxValue) : undefined,
    chord2: chord2ForKm(filters.distanceKm ?? SEARCH_DEFAULT_DISTANCE_KM),
    premium: filters.premium,
    categoryIds: filters.categoryIds,
    listingType: filters.listingType,
    barterMode: filters.barterMode,
    excludeOwners: filters.excludeOwners,
    query: query?.length ? query : undefined,
  };
}

/** What a search asks for: one of its categories and all of its words (the demand preview's whole question). */
export function wantsListing(c: CompiledFilters, l: PreparedListing): boolean {
  if (c.categoryIds.length && !l.state.categoryIds.some((id) => c.categoryIds.includes(id))) return false;
  return !c.query || l.hasWords(c.query);
}

/** The filters that read the listing alone: value, Premium, kind, barter mode, then categories and words. */
export function listingPasses(c: CompiledFilters, l: PreparedListing): boolean {
  const listing = l.state;
  if (!listing.active || c.excludeOwners?.has(listing.ownerId)) return false;
  // A listing without a value passes unless the minimum is above 0.
  if (l.value === undefined) {
    if (c.min !== undefined) return false;
  } else if ((c.min !== undefined && l.value < c.min) || (c.max !== undefined && l.value > c.max)) return false;
  if (c.premium && !listing.isPremium) return false;
  if (c.listingType && listing.listingType !== c.listingType) return false;
  if (c.barterMode === 'services_only' && (listing.listingType !== 'service' || listing.acceptsItems)) return false;
  if (c.barterMode === 'services_or_items' && (listing.listingType !== 'service' || !listing.acceptsItems)) return false;
  return wantsListing(c, l);
}

/**
 * The rules that read the viewer: the head start and the distance from `at`, the viewer's own place
 * as a vector (undefined: none, or a deleted member: no distance filter).
 */
export function viewerMay(c: CompiledFilters, l: PreparedListing, viewer: Viewer, at: Vec3 | undefined, now: number): boolean {
  const listing = l.state;
  // Premium-only and new listings: premium members and their owner only (spec 2, the six-hour head start).
  if (listing.ownerId !== viewer.id && !isPremiumAt(viewer, now) && (listing.isPremium || l.createdMs > now - HEAD_START_MS)) return false;
  // Within the distance of one's own place; without one, anywhere (listings without a place too).
  if (at) {
    if (!l.at) return false;
    const dx = l.at.x - at.x;
    const dy = l.at.y - at.y;
    const dz = l.at.z - at.z;
    if (dx * dx + dy * dy + dz * dz > c.chord2) return false;
  }
  return true;
}

/** A viewer's place as `viewerMay` reads it. */
export const viewerAt = (viewer: Viewer): Vec3 | undefined => (!viewer.deleted && isPlace(viewer.latitude, viewer.longitude) ? toVec(viewer.latitude!, viewer.longitude!) : undefined);

/**
 * Whether one listing is among what one search finds, for one viewer at `now` (ms or a Date on the
 * platform's clock): the same rules as `SearchEngine.search` without the index, for a listing on its
 * own (saved-search alerts). The arithmetic is the engine's (squared chords, whole cents), so both
 * agree on the edges too; the property test holds them to it. Keywords (`filters.q`) follow the
 * engine's text rule (text.ts) over the title, the excerpt and the names of the listing's
 * categories as `categories` gives them. Many searches against one listing: prepareListing and
 * compileFilters once, then listingPasses and viewerMay.
 */
export function matches(filters: MatchFilters, listing: ListingState, viewer: Viewer, now: number | Date, categories?: CategoryNames): boolean {
  const c = compileFilters(filters);
  const l = prepareListing(listing, categories);
  return listingPasses(c, l) && viewerMay(c, l, viewer, viewerAt(viewer), typeof now === 'number' ? now : now.getTime());
}
