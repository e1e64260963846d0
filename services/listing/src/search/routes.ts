import type { ListingCard } from '@ruilplein/contracts';
import { kmForChord2, roundKm, type SearchEngine } from '@ruilplein/search';
import { HttpError, nowMs, type HandlerPart } from '@ruilplein/service-kit';
import type { CategoryCache } from '../categories/cache.ts';
import { categoryIndex } from '../listings/present.ts';
import type { SearchService } from './sync.ts';

/** While a replica is still loading its index (readiness says so too, so traffic goes elsewhere). */
export const SEARCH_LOADING = 'Zoeken is zo weer beschikbaar. Probeer het over een minuut opnieuw.';

/**
 * A card names its owner's place only where its distance was measured to (listings/present.ts
 * namedHere): the index's copy of a listing's place follows its owner's move a moment later, and
 * in between the new name stood beside the old distance ('124 km · Zeist', issue 27). Compared by
 * the distance from the caller to the owner's place as the index knows it now.
 */
export function namedWhereMeasured(engine: Pick<SearchEngine, 'members'>, viewerId: string, cards: ListingCard[], now: number): ListingCard[] {
  const from = engine.members.searcher(viewerId, now).place;
  if (!from) return cards; // no distance shown: the name cannot disagree with it
  return cards.map((card) => {
    if (card.distanceInKm === null || card.user.city === undefined) return card;
    const to = engine.members.searcher(card.user.id, now).place;
    const km = to ? roundKm(kmForChord2((from.x - to.x) ** 2 + (from.y - to.y) ** 2 + (from.z - to.z) ** 2)) : null;
    if (km === card.distanceInKm) return card;
    const { city: _city, ...user } = card.user;
    return { ...card, user };
  });
}

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
        return namedWhereMeasured(e, principal.userId, e.cards(page, names), now);
      },
      suggest: ({ query }) => (query.q ? engine().suggest(query.q) : []),
      // The kit has checked that `userId` is the caller.
      recommendations: ({ query, principal }) => {
        const e = engine();
        const now = nowMs();
        const hidden = search.hiddenFor(principal.userId);
        const page = e.recommendations(e.searcher(principal.userId, now), query.radiusKm, query.page, now, hidden.size ? hidden : undefined);
        return namedWhereMeasured(e, principal.userId, e.cards(page, categoryIndex(categories.current())), now);
      },
    },
  } satisfies HandlerPart<'listing'>;
}
