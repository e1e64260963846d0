import {
  createApp,
  ensureStream,
  startOutboxRelay,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type ServiceParts,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import { z } from 'zod';
import { startCategoryCache } from './categories/cache.ts';
import { categoryModel } from './categories/model.ts';
import { categoryHttp, categoryQueriesWorker } from './categories/routes.ts';
import { seedCategories } from './categories/seed.ts';

/** Variables of the listing service beyond the kit's own. */
export const listingConfig = z.object({});

export interface ListingDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
}

export async function createListingService(deps: ListingDeps): Promise<ServiceParts> {
  const categories = categoryModel(deps.db);
  await ensureStream(deps.bus, 'listing');
  const relay = startOutboxRelay({ bus: deps.bus, db: deps.db, collections: [categories.collection.collectionName], logger: deps.logger });
  if ((await seedCategories(categories)) > 0) relay.kick();
  const cache = await startCategoryCache(categories, deps.bus, deps.logger);
  const app = createApp({
    service: 'listing',
    logger: deps.logger,
    verifyToken: deps.verifyToken,
    readiness: storeReadiness(deps),
    routes: (api) => categoryHttp(api, cache),
  });
  return { app, workers: [categoryQueriesWorker(deps.bus, cache, deps.logger), cache, relay] };
}
