import type { QueryClient } from '@tanstack/react-query';

// What a listing's change can alter: every listing read (own list, detail, search, a member's
// listings), the wishlist (it shows the listing's title and photo) and the public stats (active count).
const affected = /^\/api\/(listing|wishlist|user\/public\/stats)(\/|$)/;

/** Marks those queries stale; the ones on screen are asked again now. */
export function invalidateListingData(queries: QueryClient): Promise<void> {
  return queries.invalidateQueries({ predicate: ({ queryKey }) => typeof queryKey[1] === 'string' && affected.test(queryKey[1]) });
}
