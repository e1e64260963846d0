import { originPolicy, runService } from '@ruilplein/service-kit';
import { createClient, type RedisClientType } from 'redis';
import { createNotificationService, notificationConfig } from './app.ts';

await runService({
  name: 'notification',
  config: notificationConfig,
  start: async (kit) => {
    const { config, logger } = kit;
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    // The hub's adapter gets a client of its own that waits for Redis (an offline queue, bounded),
    // as chat's does.
    const adapterRedis: RedisClientType = createClient({ url: config.REDIS_URL, commandsQueueMaxLength: 10_000 });
    adapterRedis.on('error', (err) => logger.warn({ err }, 'notification hub: redis connection failed'));
    adapterRedis.connect().catch((err: unknown) => logger.error({ err }, 'notification hub: redis gave up connecting'));
    const service = await createNotificationService({
      db,
      bus,
      redis,
      adapterRedis,
      logger,
      verifyToken: kit.verifyToken,
      config,
      allowOrigin: originPolicy({ publicUrl: config.PUBLIC_URL, allowed: config.NOTIFICATION_ALLOWED_ORIGINS, local: config.RUILPLEIN_MODE === 'local' }),
    });
    const closeAdapterRedis = async () => {
      if (adapterRedis.isReady) await adapterRedis.quit();
      else if (adapterRedis.isOpen) adapterRedis.destroy();
    };
    return { app: service.app, onUpgrade: service.onUpgrade, workers: [...(service.workers ?? []), { stop: closeAdapterRedis }] };
  },
});
