import { HttpError, nowMs, type HandlerPart } from '@ruilplein/service-kit';
import type { SavedAlerts } from '../saved/alerts.ts';
import { SEARCH_LOADING } from '../search/routes.ts';
import type { SearchService } from '../search/sync.ts';
import { countDemand, NO_DEMAND } from './count.ts';

/**
 * GET /api/listing/demand (issue 23): from this replica's memory, the saved searches and
 * wishlists by place and the search index for the wished-for listings' categories; never the store.
 */
export function demandHandlers(search: SearchService, alerts: Pick<SavedAlerts, 'book' | 'viewerOf' | 'categoryNames'>) {
  return {
    listing: {
      demand: ({ query, principal }) => {
        if (!search.isReady()) throw new HttpError(503, SEARCH_LOADING);
        const now = nowMs();
        const engine = search.engine;
        const at = engine.members.searcher(principal.userId, now).place;
        // Without a place of one's own there is no "nearby".
        if (!at) return NO_DEMAND;
        const index = engine.index;
        const bits = query.categoryIds.map((id) => index.categoryBitOf(id, false)).filter((bit) => bit >= 0);
        const sharesCategory = bits.length
          ? (listingId: string) => {
              const slot = index.find(listingId);
              if (slot < 0 || !index.has(listingId)) return false;
              return bits.some((bit) => (index.cats[slot * index.words + (bit >> 5)]! & (1 << (bit & 31))) !== 0);
            }
          : undefined;
        return countDemand({ book: alerts.book, at, caller: principal.userId, hidden: search.hiddenFor(principal.userId), query, viewerOf: alerts.viewerOf, sharesCategory, now, categories: alerts.categoryNames() });
      },
    },
  } satisfies HandlerPart<'listing'>;
}
