import { inventoryQueries } from '@ruilplein/contracts';
import {
  now as platformNow,
  createApp,
  joinHandlers,
  ensureStream,
  requestQuery,
  startOutboxRelay,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type RateLimitRedis,
  type ServiceParts,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import { z } from 'zod';
import { COLLECTIONS, tradeCollections, type TradeContext } from './context.ts';
import { consumeListings } from './listings/consumer.ts';
import { consumeMembers } from './members/consumer.ts';
import { consumeModeration } from './moderation/consumer.ts';
import { serveChainProposals } from './offers/chain.ts';
import { offerHandlers } from './offers/routes.ts';
import { consumeOutcomes } from './outcomes/consumer.ts';
import { reviewHandlers } from './reviews/routes.ts';

/** Variables of the trade service beyond the kit's own (REDIS_URL is read by `kit.redis()`). */
export const tradeConfig = z.object({});

export interface TradeDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Counts the declared rate limit of offer creation (`kit.redis()`). */
  redis: RateLimitRedis;
  /** Now; tests move it (the Dutch day boundary of the daily limit). */
  clock?: () => Date;
  /** A member's inventory; the listing service's `rpc.listing.inventory.get` unless a test says otherwise. */
  inventory?: TradeContext['inventory'];
}

export async function createTradeService(deps: TradeDeps): Promise<ServiceParts> {
  const { db, bus, logger } = deps;
  await ensureStream(bus, 'trade');
  const relay = startOutboxRelay({ bus, db, collections: [COLLECTIONS.offers, COLLECTIONS.parties, COLLECTIONS.reviews], logger });
  const ctx: TradeContext = {
    ...tradeCollections(db),
    inventory: deps.inventory ?? ((userId, viewerId) => requestQuery(bus, inventoryQueries.get, { userId, ...(viewerId && { viewerId }) })),
    relay,
    logger,
    clock: deps.clock ?? platformNow,
  };
  const members = await consumeMembers(bus, ctx, logger);
  const outcomes = await consumeOutcomes(bus, db, ctx, logger);
  const listings = await consumeListings(bus, db, ctx, logger);
  const moderation = await consumeModeration(bus, db, ctx, logger);
  const chains = serveChainProposals(bus, ctx, logger);
  const app = createApp({
    service: 'trade',
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    readiness: storeReadiness(deps),
    handlers: joinHandlers(offerHandlers(ctx), reviewHandlers(ctx)),
  });
  return { app, workers: [members, outcomes, listings, moderation, chains, relay] };
}
