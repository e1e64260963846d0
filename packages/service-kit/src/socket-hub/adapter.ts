import { createAdapter } from '@socket.io/redis-streams-adapter';
import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '../logger.ts';

export interface SharedRoomsOptions {
  /** The Redis stream the replicas exchange broadcasts on; its entries' ids are the recovery offsets. */
  streamName: string;
  /** Names the hub in logs. */
  name: string;
}

/**
 * socket.io's Redis Streams adapter: every replica reads every broadcast from one Redis stream
 * (so a room spans replicas) and a disconnected socket's session is kept in Redis, so it is
 * recovered on whichever replica the client reaches next, with the broadcasts it missed read back
 * from the stream. The stream holds more entries than the recovery window produces at the
 * benchmarks' rates (chat: 100 messages a second for two minutes).
 *
 * The adapter does not wait for the SET that keeps a session: a Redis error there would be an
 * unhandled rejection (the process would exit). It gets a client whose `set` logs instead.
 */
export function sharedRooms(redis: RedisClientType, logger: Logger, options: SharedRoomsOptions) {
  const quietSet = new Proxy(redis, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'set') {
        return (...args: unknown[]) =>
          (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch((err: unknown) => {
            logger.warn({ err }, `${options.name}: a disconnected socket could not be kept for recovery`);
            return null;
          });
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return createAdapter(quietSet, {
    streamName: options.streamName,
    channelPrefix: options.streamName,
    sessionKeyPrefix: `${options.streamName}:session:`,
    maxLen: 20_000,
    // The readers' blocking XREAD: also how long a closed adapter's reader lingers.
    blockTimeInMs: 2_000,
    onlyPlaintext: true,
  });
}

/**
 * The Redis client a hub's adapter reads through, from a service's main: one of its own that waits
 * for Redis (an offline queue, bounded) instead of failing at once, as its readers would otherwise
 * spin while Redis is away. `stop` closes it after the hub (a worker for runService).
 */
export function adapterRedisClient(url: string, logger: Logger, hub: string): { client: RedisClientType; stop: () => Promise<void> } {
  const client: RedisClientType = createClient({ url, commandsQueueMaxLength: 10_000 });
  client.on('error', (err) => logger.warn({ err }, `${hub}: redis connection failed`));
  client.connect().catch((err: unknown) => logger.error({ err }, `${hub}: redis gave up connecting`));
  const stop = async () => {
    if (client.isReady) await client.quit();
    else if (client.isOpen) client.destroy();
  };
  return { client, stop };
}
