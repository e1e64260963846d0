import { generateKeyPairSync } from 'node:crypto';
import {
  ConfigError,
  createApp,
  joinHandlers,
  devMailRoutes,
  ensureIndexes,
  ensureStream,
  mailConfigSchema,
  mailTransportFor,
  redisConfigSchema,
  startMailRelay,
  startOutboxRelay,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type MailTransport,
  type ServiceParts,
} from '@ruilplein/service-kit';
import type { RedisClientType } from 'redis';
import { z } from 'zod';
import type { AuthContext } from './accounts/context.ts';
import { DEFAULT_LIMITS, limitIds, localLimitKey, type AuthLimits } from './accounts/limits.ts';
import { USER_INDEXES, userCollection } from './accounts/model.ts';
import { createPasswords, DEFAULT_ARGON2_COST, type Argon2Cost } from './accounts/passwords.ts';
import { accountHandlers } from './accounts/routes.ts';
import { createSessions, REFRESH_INDEXES, startSessionCleanup } from './accounts/refresh.ts';
import { createTokenIssuer, jwksOf, loadSigningKey } from './accounts/tokens.ts';
import { adminUserHandlers } from './admin/routes.ts';
import { avatarPlain } from './avatars/routes.ts';
import { avatarStore } from './avatars/store.ts';
import { BLOCK_INDEXES, blockCollection } from './blocks/model.ts';
import { blockHandlers } from './blocks/routes.ts';
import { deletionCollection } from './cleanup/deletion.ts';
import { startInactivityCleanup } from './cleanup/inactive.ts';
import { serveContacts } from './contacts/query.ts';
import { geoHandlers } from './geo/routes.ts';
import { createPlaceSearch, geoConfig } from './geo/search.ts';
import { consumeMembership } from './membership/consumer.ts';
import { consumeModeration } from './moderation/consumer.ts';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD, promoteAdmins, seedDemoAccounts } from './seed/seed.ts';
import { consumeListingCounts } from './users/listing-counts.ts';
import { userHandlers } from './users/routes.ts';
import { userStatsCollection } from './users/stats.ts';
import { consumeTradeCounts } from './users/trade-counts.ts';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Variables of the auth service beyond the kit's own (README "Environment"). */
export const authConfig = redisConfigSchema
  .extend({
    RUILPLEIN_MODE: z.enum(['local']).optional(),
    /** The browser's origin: links in mails point there. */
    PUBLIC_URL: z.url().default('http://localhost:8080'),
    /** PEM private key (Ed25519, P-256 or RSA) signing access tokens. */
    AUTH_JWT_PRIVATE_KEY: z.string().includes('PRIVATE KEY', { message: 'expected a PEM private key' }).optional(),
    /** Access tokens are short: roles, premium and bans reach every service within this. */
    AUTH_ACCESS_TOKEN_TTL_MINUTES: positive(15),
    /** How long a session lasts without a visit (the refresh cookie); each refresh starts it anew. */
    AUTH_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().optional(),
    /** Before access tokens were short this was the whole session; still honoured as its length. */
    AUTH_TOKEN_TTL_HOURS: z.coerce.number().int().positive().optional(),
    AUTH_ADMIN_EMAILS: z
      .string()
      .default('')
      .transform((s) => s.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)),
    AUTH_ARGON2_MEMORY_KIB: positive(DEFAULT_ARGON2_COST.memoryCost),
    AUTH_ARGON2_TIME_COST: positive(DEFAULT_ARGON2_COST.timeCost),
    /** Secret of the login and mail limiters' HMAC keys (README "Environment"). */
    AUTH_LIMIT_KEY: z.string().min(32, 'expected at least 32 characters').optional(),
    /** Sign-ups per client address per hour (many members may share one address: a library, a NAT). */
    AUTH_REGISTRATIONS_PER_IP_HOUR: positive(DEFAULT_LIMITS.registerPerIp.points),
  })
  // SMTP_URL and MAIL_FROM: the kit's, as for every service that sends mail.
  .extend(mailConfigSchema.shape)
  .extend(geoConfig.shape);
export type AuthConfig = z.output<typeof authConfig>;

/** Outside local mode there is no stand-in: a missing key or mail server stops the start. */
export function checkAuthConfig(config: AuthConfig): void {
  if (config.RUILPLEIN_MODE === 'local') return;
  for (const name of ['AUTH_JWT_PRIVATE_KEY', 'SMTP_URL', 'AUTH_LIMIT_KEY'] as const) {
    if (!config[name]) throw new ConfigError(`config: ${name} is missing (required unless RUILPLEIN_MODE=local)`);
  }
}

export interface AuthDeps {
  db: Connection;
  bus: Bus;
  redis: RedisClientType;
  logger: Logger;
  config: AuthConfig;
  /** Tests shorten windows or points; the defaults are DEFAULT_LIMITS. */
  limits?: Partial<AuthLimits>;
  /** Tests shorten token lifetimes below what the variables can express. */
  tokenTtl?: { accessSeconds?: number; refreshSeconds?: number };
  /** Tests hand mail to a transport of their own (a failing one); the default follows SMTP_URL. */
  mailTransport?: MailTransport;
}

/**
 * The refresh token's lifetime. AUTH_TOKEN_TTL_HOURS set the session length when the access token
 * was the session; a deployment that shortened it keeps its shorter sessions.
 */
function refreshTtlSeconds(config: AuthConfig, logger: Logger): number {
  if (config.AUTH_REFRESH_TOKEN_TTL_DAYS) return config.AUTH_REFRESH_TOKEN_TTL_DAYS * 86_400;
  if (config.AUTH_TOKEN_TTL_HOURS) {
    logger.warn('AUTH_TOKEN_TTL_HOURS is deprecated: it now sets the session (refresh token) lifetime; use AUTH_REFRESH_TOKEN_TTL_DAYS');
    return config.AUTH_TOKEN_TTL_HOURS * 3600;
  }
  return 7 * 86_400;
}

function localSigningKeyPem(logger: Logger): string {
  logger.warn('AUTH_JWT_PRIVATE_KEY is not set: signing with a key made for this process (tokens end with it)');
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export async function createAuthService(deps: AuthDeps): Promise<ServiceParts> {
  const { db, bus, redis, logger, config } = deps;
  checkAuthConfig(config);
  const local = config.RUILPLEIN_MODE === 'local';
  const users = userCollection(db);
  const deletions = deletionCollection(db);
  const blocks = blockCollection(db);
  await ensureIndexes(users, USER_INDEXES); // the unique email index must exist before the first registration
  await ensureIndexes(blocks, BLOCK_INDEXES);
  await ensureStream(bus, 'auth');
  const relay = startOutboxRelay({ bus, db, collections: [users.collectionName, deletions.collectionName, blocks.collectionName], logger });
  const places = createPlaceSearch({ logger, upstreamUrl: config.GEO_UPSTREAM_URL });
  const avatars = avatarStore(db);
  const stats = userStatsCollection(db);

  const key = await loadSigningKey(config.AUTH_JWT_PRIVATE_KEY ?? localSigningKeyPem(logger));
  const tokens = createTokenIssuer({ key, redis, ttlSeconds: deps.tokenTtl?.accessSeconds ?? config.AUTH_ACCESS_TOKEN_TTL_MINUTES * 60 });
  const sessions = createSessions({ db, users, tokens, logger, ttlSeconds: deps.tokenTtl?.refreshSeconds ?? refreshTtlSeconds(config, logger) });
  await ensureIndexes(sessions.model, REFRESH_INDEXES);
  const accountDeletion = { users, deletions, redis, relay, avatars, stats, refreshTokens: sessions.model, blocks };
  const argon2: Argon2Cost = { ...DEFAULT_ARGON2_COST, memoryCost: config.AUTH_ARGON2_MEMORY_KIB, timeCost: config.AUTH_ARGON2_TIME_COST };
  // Mails wait in the users' documents, written with the change that causes them (mail/templates.ts).
  const mail = startMailRelay({ db, collections: [users.collectionName], transport: deps.mailTransport ?? mailTransportFor({ config, local, db, service: 'auth' }), logger });

  const ctx: AuthContext = {
    db,
    bus,
    redis,
    logger,
    users,
    relay,
    tokens,
    sessions,
    passwords: createPasswords(argon2),
    mail,
    limits: { ...DEFAULT_LIMITS, registerPerIp: { ...DEFAULT_LIMITS.registerPerIp, points: config.AUTH_REGISTRATIONS_PER_IP_HOUR }, ...deps.limits },
    limitIds: limitIds(config.AUTH_LIMIT_KEY ?? localLimitKey(config.AUTH_JWT_PRIVATE_KEY)),
    publicUrl: config.PUBLIC_URL.replace(/\/$/, ''),
    adminEmails: new Set(config.AUTH_ADMIN_EMAILS),
  };

  if (local && (await seedDemoAccounts(ctx)) > 0) relay.kick();
  if ((await promoteAdmins(ctx)) > 0) relay.kick();
  // One line `npm start` picks up and prints (infra/local/src/start.ts).
  if (local) logger.info({ email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD }, 'demo admin account');

  const app = createApp({
    service: 'auth',
    logger,
    redis,
    verifyToken: tokens.verify,
    readiness: { ...storeReadiness(deps), redis: () => redis.ping() },
    handlers: joinHandlers(
      accountHandlers(ctx),
      geoHandlers(places),
      userHandlers({ users, avatars, places, stats, announce: relay.kick, logger }),
      blockHandlers({ users, blocks, announce: relay.kick }),
      adminUserHandlers(accountDeletion),
    ),
    plain: (router) => {
      // Public keys for the gateway and every service (AUTH_JWKS_URL); not behind the gateway.
      const jwks = jwksOf([key]);
      router.get('/.well-known/jwks.json', (_req, res) => {
        res.setHeader('cache-control', 'public, max-age=300');
        res.json(jwks);
      });
      avatarPlain(router, avatars);
      if (local && !config.SMTP_URL) devMailRoutes(router, db, logger);
    },
  });

  const cleanup = startInactivityCleanup({ ...accountDeletion, logger });
  const listingCounts = await consumeListingCounts({ bus, db, logger, users, stats });
  const tradeCounts = await consumeTradeCounts({ bus, db, logger, users, stats });
  const moderation = await consumeModeration({ bus, db, logger, users, redis });
  const membership = await consumeMembership({ bus, db, logger, users, relay });
  // Addresses for the notification service's mails (auth's events carry none).
  const contacts = serveContacts(bus, users, logger);
  return { app, workers: [listingCounts, tradeCounts, moderation, membership, cleanup, startSessionCleanup(sessions, logger), relay, mail, contacts] };
}
