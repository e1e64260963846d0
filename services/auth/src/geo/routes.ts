import { geoRoutes } from '@ruilplein/contracts';
import type { Api } from '@ruilplein/service-kit';
import type { PlaceSearch } from './search.ts';

/** Public: the shell looks up a city at registration, before there is a token. */
export function geoHttp(api: Api, places: PlaceSearch) {
  api.handle(geoRoutes.search, ({ query }) => places.search(query.q, query.limit));
}
