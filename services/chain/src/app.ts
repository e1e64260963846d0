import {
  createApp,
  joinHandlers,
  startPeriodic,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type Periodic,
  type RateLimitRedis,
  type ServiceParts,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import { z } from 'zod';
import { chainContext, type ChainContext } from './context.ts';
import { consumeListings, consumeMembers } from './graph/consumers.ts';
import { loadEngine, resync } from './graph/state.ts';
import { consumeOffers } from './proposals/offers.ts';
import { proposalHandlers } from './proposals/routes.ts';
import { suggestionHandlers } from './suggestions/routes.ts';

/** Variables of the chain service beyond the kit's own: none yet. */
export const chainConfig = z.object({});

export interface ChainDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Counts the declared rate limit of proposals (`kit.redis()`). */
  redis: RateLimitRedis;
  /** How often the engine is rebuilt from the store (tests: rarely, and by hand). */
  resyncMs?: number;
}

const RESYNC_MS = 5 * 60_000;

/**
 * Swap chains (issue 24): one instance keeps the want graph in memory (packages/chains). It is
 * rebuilt at every start from the service's own store, which the durable consumers keep: they
 * carry on from where they were acknowledged, so nothing is read twice into the engine and
 * nothing is missed (docs/decisions.md "Swap chains").
 */
export async function createChainService(deps: ChainDeps): Promise<ServiceParts & { ctx: ChainContext; rebuild: Periodic<unknown> }> {
  const { db, bus, logger } = deps;
  const ctx = chainContext(db, logger);
  const loaded = await loadEngine(ctx);
  logger.info({ ...loaded, ...ctx.engine.counts }, 'chain: want graph loaded');
  const members = await consumeMembers(bus, ctx);
  const listings = await consumeListings(bus, db, ctx);
  const offers = await consumeOffers(bus, db, ctx);
  // A rebuild from the store every few minutes: takes in what a rollout's old pod handled after this
  // one loaded; at scale a rebuild takes a while, so it runs at most a tenth of the time.
  const rebuild = startPeriodic({
    intervalMs: deps.resyncMs ?? RESYNC_MS,
    restFactor: 10,
    logger,
    what: 'rebuilding the want graph',
    work: async () => {
      const figures = await resync(ctx);
      if (figures) logger.info({ ...figures, ...ctx.engine.counts }, 'chain: want graph rebuilt');
      return figures;
    },
  });
  const app = createApp({
    service: 'chain',
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    readiness: storeReadiness(deps),
    handlers: joinHandlers(suggestionHandlers(ctx), proposalHandlers(ctx, bus)),
  });
  return { app, workers: [members, listings, offers, rebuild], ctx, rebuild };
}
