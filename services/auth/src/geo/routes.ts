import type { HandlerPart } from '@ruilplein/service-kit';
import type { PlaceSearch } from './search.ts';

/** Public: the shell looks up a city at registration, before there is a token. */
export function geoHandlers(places: PlaceSearch) {
  return {
    geo: {
      search: ({ query }) => places.search(query.q, query.limit),
    },
  } satisfies HandlerPart<'auth'>;
}
