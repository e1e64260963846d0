import {
  createApp,
  ensureStream,
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
import { COLLECTIONS, moderationCollections, type ModerationContext } from './context.ts';
import { consumeListings } from './listings/consumer.ts';
import { consumeMembers } from './members/consumer.ts';
import { reportHttp } from './reports/routes.ts';
import { sanctionHttp } from './sanctions/routes.ts';
import { startBlockSweep } from './sanctions/sweep.ts';
import { statsHttp } from './stats/routes.ts';

const DAY_MS = 86_400_000;
const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Variables of the moderation service beyond the kit's own (README "Environment"; decisions.md "Moderation"). */
export const moderationConfig = z.object({
  /** This many warnings within the window block a member automatically… */
  MODERATION_AUTO_BLOCK_WARNINGS: positive(3),
  MODERATION_AUTO_BLOCK_WINDOW_DAYS: positive(7),
  /** …for this long. */
  MODERATION_AUTO_BLOCK_DAYS: positive(7),
  /** How often ended blocks are tidied away (auth and the gateway stop enforcing them at their date anyway). */
  MODERATION_SWEEP_SECONDS: positive(60),
});
export type ModerationConfig = z.output<typeof moderationConfig>;

export interface ModerationDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Counts the declared rate limit of reports (`kit.redis()`). */
  redis: RateLimitRedis;
  config?: Partial<ModerationConfig>;
}

export async function createModerationService(deps: ModerationDeps): Promise<ServiceParts> {
  const { db, bus, logger } = deps;
  const config = moderationConfig.parse(deps.config ?? {});
  await ensureStream(bus, 'moderation');
  const relay = startOutboxRelay({ bus, db, collections: [COLLECTIONS.states], logger });
  const ctx: ModerationContext = {
    ...moderationCollections(db),
    relay,
    logger,
    autoBlock: {
      warnings: config.MODERATION_AUTO_BLOCK_WARNINGS,
      windowMs: config.MODERATION_AUTO_BLOCK_WINDOW_DAYS * DAY_MS,
      blockMs: config.MODERATION_AUTO_BLOCK_DAYS * DAY_MS,
    },
  };
  const members = await consumeMembers(bus, db, ctx, logger);
  const listings = await consumeListings(bus, db, ctx, logger);
  const sweep = startBlockSweep(ctx, config.MODERATION_SWEEP_SECONDS * 1000);
  const app = createApp({
    service: 'moderation',
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    readiness: storeReadiness(deps),
    routes: (api) => {
      reportHttp(api, ctx);
      sanctionHttp(api, ctx);
      statsHttp(api, ctx);
    },
  });
  return { app, workers: [members, listings, sweep, relay] };
}
