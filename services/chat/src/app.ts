import {
  createApp,
  ensureStream,
  redisConfigSchema,
  startOutboxRelay,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type OutboxRelay,
  type ServiceParts,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import type { RedisClientType } from 'redis';
import { z } from 'zod';
import { consumeOffers } from './conversations/consumer.ts';
import { chatStore, type ChatStore } from './conversations/model.ts';
import { chatHandlers, chatPlain } from './conversations/routes.ts';
import { createHub, type Hub } from './hub/hub.ts';
import { consumeMembers } from './members/consumer.ts';

/** Variables of the chat service beyond the kit's own. */
export const chatConfig = redisConfigSchema.extend({
  /** The browser's origin: the pages that may open the hub. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** Further origins that may open the hub, comma-separated. */
  CHAT_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((o) => o.trim()).filter(Boolean)),
  /** local: loopback origins (the frontends' development servers) may open the hub too. */
  RUILPLEIN_MODE: z.enum(['local']).optional(),
});

export interface ChatDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** `kit.redis()`: the send limit and the hub's revocation check (fail at once while Redis is away). */
  redis: RedisClientType;
  /** The hub's rooms across replicas (the kit's socket-hub); absent: one replica only. */
  adapterRedis?: RedisClientType;
  allowOrigin: (origin: string | undefined) => boolean;
  /** The adapter's Redis stream; tests give each set of replicas its own. */
  hubStream?: string;
  recoveryMs?: number;
  /** How often the hub checks every socket for revocations it was not told of (hub.ts); tests shorten it. */
  revocationSweepMs?: number;
}

export interface ChatService extends ServiceParts {
  hub: Hub;
  store: ChatStore;
  /** Publishes `chat.message.sent` from the messages' outbox. */
  relay: OutboxRelay;
}

export async function createChatService(deps: ChatDeps): Promise<ChatService> {
  const { db, bus, logger, redis } = deps;
  const store = chatStore(db);
  const hub = createHub({
    store,
    logger,
    verifyToken: deps.verifyToken,
    redis,
    allowOrigin: deps.allowOrigin,
    adapterRedis: deps.adapterRedis,
    streamName: deps.hubStream,
    recoveryMs: deps.recoveryMs,
    revocationSweepMs: deps.revocationSweepMs,
  });
  await ensureStream(bus, 'chat');
  const relay = startOutboxRelay({ bus, db, collections: [store.messages.collectionName], logger });
  const app = createApp({
    service: 'chat',
    logger,
    verifyToken: deps.verifyToken,
    redis,
    readiness: { ...storeReadiness(deps), redis: () => redis.ping() },
    handlers: chatHandlers(store, hub, relay, logger),
    plain: chatPlain,
  });
  const members = await consumeMembers(bus, store, logger);
  const offers = await consumeOffers(bus, db, store, logger, (offer) => hub.offerChanged(offer));
  // The hub first: its sockets' sessions are kept while Redis is still there. It listens for
  // revocations itself (every replica closes the revoked member's sockets it holds).
  return { app, onUpgrade: hub.onUpgrade, hub, store, relay, workers: [{ stop: () => hub.stop() }, relay, offers, members] };
}
