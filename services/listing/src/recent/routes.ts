// GET /api/listing/recent (issue 27): the landing page's newest public listings. What a guest may
// see is the search index's own rule (packages/search: live, not Premium-only, past the six-hour
// head start, owner not suspended), asked as a searcher nobody is: no place, no Premium, no blocks.
// The answer is the same for every caller, signed in or not, so each replica keeps it a moment and
// shared caches may too.
import { RECENT_LISTINGS_MAX, type ListingCard, type PublicListing } from '@ruilplein/contracts';
import { HttpError, nowMs, type HandlerPart } from '@ruilplein/service-kit';
import type { CategoryCache } from '../categories/cache.ts';
import { categoryIndex } from '../listings/present.ts';
import { SEARCH_LOADING } from '../search/routes.ts';
import type { SearchService } from '../search/sync.ts';

/** How long a replica answers the list it made last (ms of the platform clock). */
const RECENT_KEPT_MS = 10_000;

/** No member has this id: the searcher of a guest (no place, not Premium, blocks nobody). */
const GUEST = '';

/** A card as anyone may see it: no owner but their town, no distance, no description. */
const publicListing = (card: ListingCard): PublicListing => ({
  id: card.id,
  title: card.title,
  thumbnailUrl: card.thumbnailUrl,
  placeholder: card.placeholder,
  listingType: card.listingType,
  listingCategories: card.listingCategories,
  city: card.user.city ?? null,
  createdAt: card.createdAt,
});

export function recentHandlers(search: SearchService, categories: CategoryCache, keptMs = RECENT_KEPT_MS) {
  let kept: { at: number; list: PublicListing[] } | undefined;
  return {
    listing: {
      recent: ({ res }) => {
        if (!search.isReady()) throw new HttpError(503, SEARCH_LOADING);
        res.setHeader('cache-control', `public, max-age=${Math.floor(keptMs / 1000)}`);
        // The platform's clock: moving it ends a head start here as everywhere else (and back: made again).
        const now = nowMs();
        if (kept && now >= kept.at && now - kept.at < keptMs) return kept.list;
        const e = search.engine;
        const page = e.search(e.searcher(GUEST, now), { page: 1, take: RECENT_LISTINGS_MAX, premium: false, categoryIds: [] }, now);
        const list = e.cards(page, categoryIndex(categories.current())).map(publicListing);
        kept = { at: now, list };
        return list;
      },
    },
  } satisfies HandlerPart<'listing'>;
}
