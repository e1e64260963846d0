import { NOTIFICATION_MESSAGES } from '@ruilplein/contracts';
import {
  askAuthForContacts,
  badRequest,
  ConfigError,
  createApp,
  ensureStream,
  joinHandlers,
  mailConfigSchema,
  mailTransportFor,
  now,
  redisConfigSchema,
  startMailRelay,
  startPeriodic,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type MailTransport,
  type Periodic,
  type ServiceParts,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import type { RedisClientType } from 'redis';
import { z } from 'zod';
import { expireOld, type ExpiryResult } from './cleanup/expiry.ts';
import { consumeChat } from './consumers/chat.ts';
import { consumeListing } from './consumers/listing.ts';
import { consumeMembers } from './consumers/members.ts';
import { consumeModeration } from './consumers/moderation.ts';
import { consumePayment, tellEndings } from './consumers/payment.ts';
import { consumeTrade } from './consumers/trade.ts';
import { COLLECTIONS, notificationCollections, type NotificationContext } from './context.ts';
import { dueDigestDay, runDigest, type DigestResult } from './mail/digest.ts';
import { createNotificationHub, type NotificationHub } from './live/hub.ts';
import { notificationHandlers } from './notifications/routes.ts';
import { countUnread } from './notifications/store.ts';
import { preferenceHandlers } from './preferences/routes.ts';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** What the service reads of its variables (README "Environment"). */
const notificationSettings = z
  .object({
    RUILPLEIN_MODE: z.enum(['local']).optional(),
    /** The browser's origin: links in mails, and the pages that may open the hub. */
    PUBLIC_URL: z.url().default('http://localhost:8080'),
    /** Signs the unsubscribe links (HMAC-SHA256); required outside local mode. Changing it breaks the links in mails sent before. */
    NOTIFICATION_UNSUBSCRIBE_KEY: z.string().min(32, 'expected at least 32 characters').optional(),
    /** How often the digest checks whether 08:00 Dutch time has come, and the Premium endings are scanned. */
    NOTIFICATION_CHECK_SECONDS: positive(60),
    /** How often expired notifications and sent mails are deleted. */
    NOTIFICATION_EXPIRY_SECONDS: positive(3600),
  })
  // SMTP_URL and MAIL_FROM: the kit's, as for every service that sends mail.
  .extend(mailConfigSchema.shape);
type NotificationSettings = z.output<typeof notificationSettings>;

/** Variables of the notification service beyond the kit's own; REDIS_URL and the origins for the hub (main.ts). */
export const notificationConfig = redisConfigSchema.extend(notificationSettings.shape).extend({
  /** Further origins that may open the hub, comma-separated. */
  NOTIFICATION_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((o) => o.trim()).filter(Boolean)),
});

/** Local mode only: a fixed key, so links keep working across restarts of a development platform. */
const LOCAL_UNSUBSCRIBE_KEY = 'ruilplein-local-unsubscribe-key-not-for-production';

export interface NotificationDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** `kit.redis()`: rate limits and the hub's token checks. */
  redis: RedisClientType;
  /** The hub's rooms across replicas; absent: one replica only. */
  adapterRedis?: RedisClientType;
  allowOrigin: (origin: string | undefined) => boolean;
  config?: Partial<NotificationSettings>;
  /** Tests hand mail to a transport of their own; the default follows SMTP_URL (local mode: /dev/mail). */
  mailTransport?: MailTransport;
  /** Tests answer addresses themselves; the default asks auth (`rpc.auth.member.contacts`). */
  contacts?: NotificationContext['contacts'];
  /** The hub's adapter stream; tests give each set of replicas their own. */
  hubStream?: string;
}

export interface NotificationService extends ServiceParts {
  ctx: NotificationContext;
  hub: NotificationHub;
  /** The daily digest's job (`run()` does a round now: the digest of today when 08:00 has passed). */
  digest: Periodic<DigestResult | undefined>;
  endings: Periodic<number>;
  expiry: Periodic<ExpiryResult>;
}

export async function createNotificationService(deps: NotificationDeps): Promise<NotificationService> {
  const { db, bus, logger, redis } = deps;
  const config = notificationSettings.parse(deps.config ?? {});
  const local = config.RUILPLEIN_MODE === 'local';
  if (!local && !config.NOTIFICATION_UNSUBSCRIBE_KEY) throw new ConfigError('config: NOTIFICATION_UNSUBSCRIBE_KEY is missing (required unless RUILPLEIN_MODE=local)');
  await ensureStream(bus, 'notification');
  const collections = notificationCollections(db);
  const mail = startMailRelay({ db, collections: [COLLECTIONS.mails], transport: deps.mailTransport ?? mailTransportFor({ config, local, db, service: 'notification' }), logger });
  const hub = createNotificationHub({
    logger,
    verifyToken: deps.verifyToken,
    redis,
    allowOrigin: deps.allowOrigin,
    adapterRedis: deps.adapterRedis,
    streamName: deps.hubStream,
    unreadCount: (userId) => countUnread(collections, userId),
  });
  const ctx: NotificationContext = {
    ...collections,
    live: hub,
    mail,
    contacts: deps.contacts ?? askAuthForContacts(bus),
    publicUrl: config.PUBLIC_URL.replace(/\/$/, ''),
    unsubscribeKey: config.NOTIFICATION_UNSUBSCRIBE_KEY ?? LOCAL_UNSUBSCRIBE_KEY,
    logger,
  };
  const checkMs = config.NOTIFICATION_CHECK_SECONDS * 1000;
  const digest = startPeriodic({
    intervalMs: checkMs,
    work: async (round) => {
      const day = dueDigestDay(now());
      if (!day || (await ctx.buckets.findOne({ _id: `digest-run:${day}` }))) return undefined;
      const result = await runDigest(ctx, day, round);
      if (!round.stopped) await ctx.buckets.updateOne({ _id: `digest-run:${day}` }, { $set: { ids: [] } }, { upsert: true });
      logger.info(result, 'daily digest sent');
      return result;
    },
    logger,
    what: 'daily digest',
  });
  const endings = startPeriodic({ intervalMs: checkMs, work: (round) => tellEndings(ctx, round), logger, what: 'Premium endings' });
  const expiry = startPeriodic({ intervalMs: config.NOTIFICATION_EXPIRY_SECONDS * 1000, restFactor: 4, work: (round) => expireOld(ctx, round), logger, what: 'notification expiry' });

  const app = createApp({
    service: 'notification',
    logger,
    verifyToken: deps.verifyToken,
    redis,
    readiness: { ...storeReadiness(deps), redis: () => redis.ping() },
    handlers: joinHandlers(notificationHandlers(ctx), preferenceHandlers(ctx)),
    plain: (router) => {
      // The hub answers websockets only: with several replicas, long-polling would need sticky sessions.
      router.all(/^\/notificationhub(\/|$)/i, () => {
        throw badRequest(NOTIFICATION_MESSAGES.websocketOnly);
      });
    },
  });
  const consumers = [
    await consumeMembers(bus, ctx, logger),
    await consumeTrade(bus, db, ctx, logger),
    await consumeChat(bus, db, ctx, logger),
    await consumeModeration(bus, db, ctx, logger),
    await consumePayment(bus, db, ctx, logger),
    await consumeListing(bus, db, ctx, logger),
  ];
  // The hub first: its sockets' sessions are kept while Redis is still there.
  return { app, onUpgrade: hub.onUpgrade, ctx, hub, digest, endings, expiry, workers: [{ stop: () => hub.stop() }, ...consumers, digest, endings, expiry, mail] };
}
