import { DEMAND_MIN_COUNT, type Demand, type DemandQuery } from '@ruilplein/contracts';
import { matches, type ListingState, type Vec3, type Viewer } from '@ruilplein/search';
import { chordKm, degreesOf, type InterestBook } from '../saved/book.ts';

export const NO_DEMAND: Demand = { members: 0, savedSearches: 0, wishlists: 0, few: true };

/**
 * Who within `query.distanceKm` of `at` wants what `caller` is about to list. A saved search counts
 * when a listing with these categories and words at the caller's place would match its categories,
 * words and distance (its value, kind and Premium filters are left aside: the form does not know
 * them yet); a wishlist entry counts when `sharesCategory` says the wished-for listing shares one of
 * the categories. Fewer than three members: all 0 and `few`; a count under three is shown as 0.
 */
export function countDemand(options: {
  book: InterestBook;
  at: Vec3;
  caller: string;
  hidden: ReadonlySet<string>;
  query: DemandQuery;
  viewerOf: (userId: string, now: number) => Viewer;
  sharesCategory: ((listingId: string) => boolean) | undefined;
  now: number;
  /** The categories' names: their words count for `q`, as in search. */
  categories?: ReadonlyMap<string, { name: string }>;
}): Demand {
  const { book, at, caller, hidden, query, viewerOf, sharesCategory, now, categories } = options;
  const listing: ListingState = {
    id: '',
    version: 1,
    ownerId: caller,
    active: true,
    title: query.q ?? '',
    excerpt: '',
    listingType: 'item',
    acceptsItems: false,
    isPremium: false,
    initialValue: null,
    categoryIds: query.categoryIds,
    imageUrl: '',
    thumbnailUrl: '',
    placeholder: '',
    // Long past any head start: the question is what members want, not when they may see it.
    createdAt: 0,
    ...degreesOf(at),
  };
  let members = 0;
  let savedSearches = 0;
  let wishlists = 0;
  book.near(
    at,
    (interest) => {
      if (interest.userId === caller || hidden.has(interest.userId) || !interest.place || chordKm(at, interest.place) > query.distanceKm) return;
      let s = 0;
      if (interest.searches.length) {
        const viewer = viewerOf(interest.userId, now);
        for (const saved of interest.searches) {
          const f = saved.filters;
          if (matches({ categoryIds: f.categoryIds ?? [], distanceKm: f.distanceKm, premium: false, ...(f.q ? { q: f.q } : {}) }, listing, viewer, now, categories)) s++;
        }
      }
      let w = 0;
      if (sharesCategory) for (const id of interest.wishes) if (sharesCategory(id)) w++;
      if (s || w) {
        members++;
        savedSearches += s;
        wishlists += w;
      }
    },
    query.distanceKm,
  );
  if (members < DEMAND_MIN_COUNT) return NO_DEMAND;
  // A count under three could point at one member too.
  const shown = (n: number) => (n < DEMAND_MIN_COUNT ? 0 : n);
  return { members, savedSearches: shown(savedSearches), wishlists: shown(wishlists), few: false };
}
