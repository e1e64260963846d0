import {
  blockProjection,
  createApp,
  joinHandlers,
  ensureIndexes,
  ensureStream,
  memberProjection,
  startOutboxRelay,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type OutboxRelay,
  type RateLimitRedis,
  type ServiceParts,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import { z } from 'zod';
import { startCategoryCache, type CategoryCache } from './categories/cache.ts';
import { categoryCollection } from './categories/model.ts';
import { categoryHandlers, categoryQueriesWorker } from './categories/routes.ts';
import { seedCategories } from './categories/seed.ts';
import { inventoryHandlers, inventoryQueriesWorker } from './inventory/routes.ts';
import type { ListingContext } from './listings/context.ts';
import { startTombstoneSweeper } from './listings/lifecycle.ts';
import { LISTING_INDEXES, listingCollection } from './listings/model.ts';
import { ownerCollection, ownerCounter } from './listings/owners.ts';
import { categoryIndex } from './listings/present.ts';
import { listingByIdHandlers, listingHandlers } from './listings/routes.ts';
import { consumeMembers } from './members/consumer.ts';
import { MEMBER_FIELDS } from './members/model.ts';
import { photoPlain } from './photos/routes.ts';
import { photoStore } from './photos/store.ts';
import { recentHandlers } from './recent/routes.ts';
import { searchHandlers } from './search/routes.ts';
import { startSearch } from './search/sync.ts';
import { demoSeeder } from './seed/seed.ts';
import { consumeModeration } from './moderation/consumer.ts';
import { consumeTrades } from './trades/consumer.ts';
import { demandHandlers } from './demand/routes.ts';
import { startSavedAlerts, type SavedAlertsDeps } from './saved/alerts.ts';
import { savedMatchCollection, savedSearchCollection } from './saved/model.ts';
import { savedContext, savedSearchHandlers } from './saved/routes.ts';
import { WISHLIST_INDEXES, wishlistCollection } from './wishlist/model.ts';
import { wishlistHandlers } from './wishlist/routes.ts';

/** Variables of the listing service beyond the kit's own (REDIS_URL is read by `kit.redis()`). */
export const listingConfig = z.object({
  /** local: the demo members get demo listings. */
  RUILPLEIN_MODE: z.enum(['local']).optional(),
});

export interface ListingDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Counts the declared rate limits of the write routes (`kit.redis()`). */
  redis: RateLimitRedis;
  /** Local mode (RUILPLEIN_MODE=local): seeds the demo listings. */
  local?: boolean;
  /** How long a replica keeps the landing page's recent listings (recent/routes.ts; tests: 0). */
  recentKeptMs?: number;
  /** Saved-search alert timings (tests shorten the head-start pass). */
  savedAlerts?: Pick<SavedAlertsDeps, 'headStartCheckMs' | 'refileMs' | 'wishlistReloadMs'>;
}

/** The parts the listing, wishlist, inventory and member code share, on one database. */
export function listingContext(db: Connection, categories: CategoryCache, relay: Pick<OutboxRelay, 'kick'>, logger: Logger): ListingContext {
  const listings = listingCollection(db);
  const owners = ownerCollection(db);
  return {
    listings,
    owners,
    counter: ownerCounter(owners, listings, (id) => relay.kick(owners.collectionName, id)),
    members: memberProjection(db, { fields: MEMBER_FIELDS }),
    blocks: blockProjection(db),
    wishlist: wishlistCollection(db),
    photos: photoStore(db),
    categories,
    relay,
    logger,
  };
}

export async function createListingService(deps: ListingDeps): Promise<ServiceParts> {
  const { db, bus, logger } = deps;
  // Loads in the background from the first moment (a large index takes a while): /healthz answers
  // meanwhile, /readyz (and search) once it is loaded.
  const search = startSearch({ db, bus, logger });
  const categories = categoryCollection(db);
  const listings = listingCollection(db);
  const owners = ownerCollection(db);
  const wishlist = wishlistCollection(db);
  // Before the first write: the unique one keeps one entry per member and listing.
  await ensureIndexes(wishlist, WISHLIST_INDEXES);
  await ensureIndexes(listings, LISTING_INDEXES);
  await ensureStream(bus, 'listing');
  const outboxes = [categories, listings, owners, wishlist, savedSearchCollection(db), savedMatchCollection(db)].map((c) => c.collectionName);
  const relay = startOutboxRelay({ bus, db, collections: outboxes, logger });
  if ((await seedCategories(categories)) > 0) relay.kick();
  const cache = await startCategoryCache(categories, bus, logger);
  const ctx = listingContext(db, cache, relay, logger);
  const seeder = deps.local ? demoSeeder(ctx, db) : undefined;
  const members = await consumeMembers(bus, ctx, logger, { applied: seeder?.memberApplied });
  // Saved searches and wishlists by place, on this replica (loads once search is loaded).
  const alerts = startSavedAlerts({ db, bus, logger, search, relay, categories: () => categoryIndex(cache.current()), ...deps.savedAlerts });
  seeder?.seedPresent();
  const app = createApp({
    service: 'listing',
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    readiness: {
      ...storeReadiness(deps),
      search: async () => search.isReady() || Promise.reject(new Error('search index loading')),
      savedSearches: async () => alerts.isReady() || Promise.reject(new Error('saved searches loading')),
    },
    handlers: joinHandlers(
      categoryHandlers(cache),
      searchHandlers(search, cache),
      recentHandlers(search, cache, deps.recentKeptMs),
      listingHandlers(ctx),
      wishlistHandlers(ctx),
      inventoryHandlers(ctx),
      demandHandlers(search, alerts),
      savedSearchHandlers(savedContext(db, { members: ctx.members, relay, alerts })),
      listingByIdHandlers(ctx),
    ),
    plain: (router) => photoPlain(router, ctx.photos),
  });
  const workers = [
    categoryQueriesWorker(bus, cache, logger),
    inventoryQueriesWorker(bus, ctx, logger),
    await consumeTrades(bus, db, ctx, logger),
    await consumeModeration(bus, db, ctx, logger),
    members,
    alerts,
    search,
    ...(seeder ? [seeder] : []),
    startTombstoneSweeper(ctx),
    cache,
    relay,
  ];
  return { app, workers };
}
