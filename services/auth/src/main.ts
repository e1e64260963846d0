import { runService } from '@ruilplein/service-kit';
import { createClient, type RedisClientType } from 'redis';
import { authConfig, checkAuthConfig, createAuthService } from './app.ts';

await runService({
  name: 'auth',
  config: authConfig,
  start: async (kit) => {
    checkAuthConfig(kit.config);
    // Without the offline queue, commands fail at once while Redis is away (503, not a hang).
    const redis: RedisClientType = createClient({ url: kit.config.REDIS_URL, disableOfflineQueue: true });
    redis.on('error', (err) => kit.logger.warn({ err }, 'redis connection failed'));
    redis.connect().catch((err) => kit.logger.error({ err }, 'redis gave up connecting'));
    const [db, bus] = await Promise.all([kit.mongo(), kit.nats()]);
    const parts = await createAuthService({ db, bus, redis, logger: kit.logger, config: kit.config });
    const quit = { stop: async () => void (redis.isOpen && (await redis.quit())) };
    return { ...parts, workers: [...(parts.workers ?? []), quit] };
  },
});
