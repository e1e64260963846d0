import type { QueryClient } from '@tanstack/react-query';

// What an offer's change can alter: the offers (list, one, today's count), reviews, the public
// figures (trades, rating) and the listings (traded ones go inactive).
const affected = /^\/api\/(tradeoffer|review|user\/public\/stats|listing)(\/|$)/;

/** Marks those queries stale; the ones on screen are asked again now. */
export function invalidateTradeData(queries: QueryClient): Promise<void> {
  return queries.invalidateQueries({ predicate: ({ queryKey }) => typeof queryKey[1] === 'string' && affected.test(queryKey[1]) });
}
