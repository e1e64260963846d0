import { DEMAND_MIN_COUNT, type Demand, type DemandQuery } from '@ruilplein/contracts';
import { chord2ForKm, prepareListing, wantsListing, type ListingState, type Vec3 } from '@ruilplein/search';
import { compiledOf, degreesOf, type Interest, type InterestBook } from '../saved/book.ts';

export const NO_DEMAND: Demand = { members: 0, savedSearches: 0, wishlists: 0, few: true };

/**
 * Who within `query.distanceKm` of `at` wants what `caller` is about to list. A saved search counts
 * when a listing with these categories and words at the caller's place would match its categories,
 * words and distance (its value, kind and Premium filters are left aside: the form does not know
 * them yet); a wishlist entry counts when the wished-for listing had one of the categories when it
 * was wished for (the book keeps a count per category). Fewer than three members: all 0 and `few`;
 * a count under three is shown as 0.
 */
export function countDemand(options: {
  book: InterestBook;
  at: Vec3;
  caller: string;
  hidden: ReadonlySet<string>;
  query: DemandQuery;
  /** The categories' names: their words count for `q`, as in search. */
  categories?: ReadonlyMap<string, { name: string }>;
}): Demand {
  const { book, at, caller, hidden, query, categories } = options;
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
    createdAt: 0,
    ...degreesOf(at),
  };
  const prepared = prepareListing(listing, categories);
  const cats = query.categoryIds;
  // Squared chords throughout: no trigonometry per member.
  const reach2 = chord2ForKm(query.distanceKm);
  let members = 0;
  let savedSearches = 0;
  let wishlists = 0;
  book.nearSearches(
    at,
    cats,
    (interest) => {
      if (interest.userId === caller || !interest.place) return;
      const d2 = chord2(at, interest.place);
      if (d2 > reach2 || hidden.has(interest.userId)) return;
      let s = 0;
      for (const saved of interest.searches) {
        const c = compiledOf(saved);
        // Within its own distance too (the engine's squared chord, as `matches` reads it).
        if (d2 <= c.chord2 && wantsListing(c, prepared)) s++;
      }
      const w = cats.length && interest.wishCats.size ? wishesIn(interest, cats) : 0;
      if (s || w) {
        members++;
        savedSearches += s;
        wishlists += w;
      }
    },
    { km: query.distanceKm, wishes: true, hasWords: prepared.hasWords },
  );
  if (members < DEMAND_MIN_COUNT) return NO_DEMAND;
  // A count under three could point at one member too.
  const shown = (n: number) => (n < DEMAND_MIN_COUNT ? 0 : n);
  return { members, savedSearches: shown(savedSearches), wishlists: shown(wishlists), few: false };
}

function chord2(a: Vec3, b: Vec3): number {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const dz = a.z - b.z;
  return dx * dx + dy * dy + dz * dz;
}

/** A member's wishes with one of `cats`: the per-category count for one category, else each wish once. */
function wishesIn(interest: Interest, cats: readonly string[]): number {
  if (cats.length === 1) return interest.wishCats.get(cats[0]!) ?? 0;
  if (!cats.some((c) => interest.wishCats.has(c))) return 0;
  let n = 0;
  for (const wished of interest.wishes.values()) if (wished.some((c) => cats.includes(c))) n++;
  return n;
}
