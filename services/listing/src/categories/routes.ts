import { categoryQueries } from '@ruilplein/contracts';
import { serveQuery, type HandlerPart, type Bus, type Logger, type Worker } from '@ruilplein/service-kit';
import type { CategoryCache } from './cache.ts';

/**
 * A public list that changes seldom: shared caches may keep it a minute, then revalidate with
 * the ETag (304 without a body while it is unchanged).
 */
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

export function categoryHandlers(cache: CategoryCache) {
  return {
    category: {
      list: ({ res }) => {
        const { list, json, etag } = cache.current();
        res.setHeader('cache-control', CACHE_CONTROL);
        // With the ETag set, express answers a matching If-None-Match with 304.
        res.setHeader('etag', etag);
        res.type('json').send(json);
        return list;
      },
    },
  } satisfies HandlerPart<'listing'>;
}

export function categoryQueriesWorker(bus: Bus, cache: CategoryCache, logger: Logger): Worker {
  return serveQuery(bus, 'listing', categoryQueries.list, async ({ ids }) => {
    const { list } = cache.current();
    if (!ids) return list;
    const wanted = new Set(ids);
    return list.filter((c) => wanted.has(c.id));
  }, logger);
}
