// Revoked tokens, announced at once. Auth revokes every token of a member (logout, password change,
// deletion, suspension) by raising the member's token version in Redis (`tokenVersionKey`): a
// request checks it each time, but a websocket outlives the check made at its upgrade. So the
// revocation is also published on a Redis channel, and a service that holds sockets (chat's hub)
// listens on every replica and closes the member's sockets there and then. Pub/sub keeps nothing
// for a listener that was away, so the listener is told to check everything it holds again each
// time its connection is (re)established; the version in Redis stays the truth throughout.
import { tokenVersionKey } from '@ruilplein/contracts';
import type { RedisClientType } from 'redis';
import type { Logger } from './logger.ts';

/** Carries the id of a member whose tokens were just revoked. */
export const TOKENS_REVOKED_CHANNEL = 'auth:tokens-revoked';

/** Revokes every token `userId` holds and announces it; resolves to the new token version. */
export async function revokeTokenVersion(redis: Pick<RedisClientType, 'incr' | 'publish'>, userId: string): Promise<number> {
  const version = await redis.incr(tokenVersionKey(userId));
  await redis.publish(TOKENS_REVOKED_CHANNEL, userId);
  return version;
}

/** The Redis client name of every listener's connection. */
export const REVOCATION_LISTENER_NAME = 'ruilplein-revocations';

export interface RevocationListener {
  stop(): Promise<void>;
}

export interface RevocationListenerOptions {
  logger: Logger;
  /** A member's tokens were revoked: check their version now. */
  revoked(userId: string): void;
  /** (Re)connected: announcements may have been lost meanwhile, so check everything held. */
  resync(): void;
}

/**
 * Listens for revocations on a connection of its own (a subscribing connection can do nothing else),
 * made from `redis`'s options. Resolves once subscribed, or at once when Redis is away (the client
 * keeps trying; `resync` runs when it gets through).
 */
export async function listenForRevocations(redis: RedisClientType, options: RevocationListenerOptions): Promise<RevocationListener> {
  const { logger } = options;
  // Named, so an operator (and a test) can tell it among Redis' clients.
  const subscriber = redis.duplicate({ name: REVOCATION_LISTENER_NAME });
  subscriber.on('error', (err: unknown) => logger.warn({ err }, 'revocations: redis connection failed'));
  let subscribed: Promise<void> | undefined;
  let done: () => void = () => {};
  const first = new Promise<void>((resolve) => (done = resolve));
  subscriber.on('ready', () => {
    // Subscribed once; the client subscribes again by itself on every later connection.
    subscribed ??= subscriber.subscribe(TOKENS_REVOKED_CHANNEL, (userId) => options.revoked(userId)).then(done, (err: unknown) => {
      subscribed = undefined;
      logger.warn({ err }, 'revocations: not subscribed; trying again at the next connection');
    });
    // Sockets may have been let in while it was not (yet) connected: check them on every connection.
    options.resync();
  });
  subscriber.connect().catch((err: unknown) => logger.warn({ err }, 'revocations: redis gave up connecting'));
  // A service starts without Redis too (the hub's checks then fail closed); it subscribes once Redis answers.
  await Promise.race([first, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  return {
    async stop() {
      if (subscriber.isReady) await subscriber.quit();
      else if (subscriber.isOpen) subscriber.destroy();
    },
  };
}
