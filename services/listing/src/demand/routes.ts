import { HttpError, nowMs, type HandlerPart } from '@ruilplein/service-kit';
import type { SavedAlerts } from '../saved/alerts.ts';
import { SEARCH_LOADING } from '../search/routes.ts';
import type { SearchService } from '../search/sync.ts';
import { countDemand, NO_DEMAND } from './count.ts';

/**
 * GET /api/listing/demand (issue 23): from this replica's memory, the saved searches and
 * wishlists by place (with the wished-for listings' categories); never the store.
 */
export function demandHandlers(search: SearchService, alerts: Pick<SavedAlerts, 'book' | 'categoryNames'>) {
  return {
    listing: {
      demand: ({ query, principal }) => {
        if (!search.isReady()) throw new HttpError(503, SEARCH_LOADING);
        const now = nowMs();
        const engine = search.engine;
        const at = engine.members.searcher(principal.userId, now).place;
        // Without a place of one's own there is no "nearby".
        if (!at) return NO_DEMAND;
        return countDemand({ book: alerts.book, at, caller: principal.userId, hidden: search.hiddenFor(principal.userId), query, categories: alerts.categoryNames() });
      },
    },
  } satisfies HandlerPart<'listing'>;
}
