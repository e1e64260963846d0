import {
  createApp,
  joinHandlers,
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
import { reportHandlers } from './reports/routes.ts';
import { sanctionHandlers } from './sanctions/routes.ts';
import { startSuspensionSweep } from './sanctions/sweep.ts';
import { statsHandlers } from './stats/routes.ts';

const DAY_MS = 86_400_000;
const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Variables of the moderation service beyond the kit's own (README "Environment"; decisions.md "Moderation"). */
export const moderationConfig = z.object({
  /** This many warnings within the window suspend a member automatically… */
  MODERATION_AUTO_SUSPENSION_WARNINGS: positive(3),
  MODERATION_AUTO_SUSPENSION_WINDOW_DAYS: positive(7),
  /** …for this long. */
  MODERATION_AUTO_SUSPENSION_DAYS: positive(7),
  /** How often ended suspensions are tidied away (auth and the gateway stop enforcing them at their date anyway). */
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
  const relay = startOutboxRelay({ bus, db, collections: [COLLECTIONS.states, COLLECTIONS.reports], logger });
  const ctx: ModerationContext = {
    ...moderationCollections(db),
    relay,
    logger,
    autoSuspension: {
      warnings: config.MODERATION_AUTO_SUSPENSION_WARNINGS,
      windowMs: config.MODERATION_AUTO_SUSPENSION_WINDOW_DAYS * DAY_MS,
      lengthMs: config.MODERATION_AUTO_SUSPENSION_DAYS * DAY_MS,
    },
  };
  const members = await consumeMembers(bus, ctx, logger);
  const listings = await consumeListings(bus, db, ctx, logger);
  const sweep = startSuspensionSweep(ctx, config.MODERATION_SWEEP_SECONDS * 1000);
  const app = createApp({
    service: 'moderation',
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    readiness: storeReadiness(deps),
    handlers: joinHandlers(reportHandlers(ctx), sanctionHandlers(ctx), statsHandlers(ctx)),
  });
  return { app, workers: [members, listings, sweep, relay] };
}
