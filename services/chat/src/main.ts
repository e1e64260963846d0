import { originPolicy, runService } from '@ruilplein/service-kit';
import { createClient, type RedisClientType } from 'redis';
import { chatConfig, createChatService } from './app.ts';

await runService({
  name: 'chat',
  config: chatConfig,
  start: async (kit) => {
    const { config, logger } = kit;
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    // The hub's adapter gets a client of its own that waits for Redis (an offline queue, bounded)
    // instead of failing at once: its readers would otherwise spin while Redis is away.
    const adapterRedis: RedisClientType = createClient({ url: config.REDIS_URL, commandsQueueMaxLength: 10_000 });
    adapterRedis.on('error', (err) => logger.warn({ err }, 'chat hub: redis connection failed'));
    adapterRedis.connect().catch((err: unknown) => logger.error({ err }, 'chat hub: redis gave up connecting'));
    const service = await createChatService({
      db,
      bus,
      redis,
      adapterRedis,
      logger,
      verifyToken: kit.verifyToken,
      allowOrigin: originPolicy({ publicUrl: config.PUBLIC_URL, allowed: config.CHAT_ALLOWED_ORIGINS, local: config.RUILPLEIN_MODE === 'local' }),
    });
    const closeAdapterRedis = async () => {
      if (adapterRedis.isReady) await adapterRedis.quit();
      else if (adapterRedis.isOpen) adapterRedis.destroy();
    };
    return { ...service, workers: [...(service.workers ?? []), { stop: closeAdapterRedis }] };
  },
});
