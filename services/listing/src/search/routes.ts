import { HttpError, nowMs, type HandlerPart } from '@ruilplein/service-kit';
import type { CategoryCache } from '../categories/cache.ts';
import { categoryIndex } from '../listings/present.ts';
import type { SearchService } from './sync.ts';

/** While a replica is still loading its index (readiness says so too, so traffic goes elsewhere). */
export const SEARCH_LOADING = 'Zoeken is zo weer beschikbaar. Probeer het over een minuut opnieuw.';

/**
 * GET /api/listing, /api/listing/suggest and /api/listing/recommendations, answered from this replica's index. Register
 * before `/api/listing/:id`: express matches in order.
 */
export function searchHandlers(search: SearchService, categories: CategoryCache) {
  const engine = () => {
    if (!search.isReady()) throw new HttpError(503, SEARCH_LOADING);
    return search.engine;
  };
  return {
    listing: {
      search: ({ query, principal }) => {
        const e = engine();
        // The platform's clock: moving it ends the six-hour head start here as on the detail page.
        const now = nowMs();
        const hidden = search.hiddenFor(principal.userId);
        const names = categoryIndex(categories.current());
        // Category names match keywords too (q): the cache's current names.
        const page = e.search(e.searcher(principal.userId, now), hidden.size ? { ...query, excludeOwners: hidden } : query, now, names);
        return e.cards(page, names);
      },
      suggest: ({ query }) => (query.q ? engine().suggest(query.q) : []),
      // The kit has checked that `userId` is the caller.
      recommendations: ({ query, principal }) => {
        const e = engine();
        const now = nowMs();
        const hidden = search.hiddenFor(principal.userId);
        const page = e.recommendations(e.searcher(principal.userId, now), query.radiusKm, query.page, now, hidden.size ? hidden : undefined);
        return e.cards(page, categoryIndex(categories.current()));
      },
    },
  } satisfies HandlerPart<'listing'>;
}
