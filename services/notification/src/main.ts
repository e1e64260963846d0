import { adapterRedisClient, originPolicy, runService } from '@ruilplein/service-kit';
import { createNotificationService, notificationConfig } from './app.ts';

await runService({
  name: 'notification',
  config: notificationConfig,
  start: async (kit) => {
    const { config, logger } = kit;
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    const adapter = adapterRedisClient(config.REDIS_URL, logger, 'notification hub');
    const service = await createNotificationService({
      db,
      bus,
      redis,
      adapterRedis: adapter.client,
      logger,
      verifyToken: kit.verifyToken,
      config,
      allowOrigin: originPolicy({ publicUrl: config.PUBLIC_URL, allowed: config.NOTIFICATION_ALLOWED_ORIGINS, local: config.RUILPLEIN_MODE === 'local' }),
    });
    return { app: service.app, onUpgrade: service.onUpgrade, workers: [...(service.workers ?? []), adapter] };
  },
});
