import { adapterRedisClient, originPolicy, runService } from '@ruilplein/service-kit';
import { chatConfig, createChatService } from './app.ts';

await runService({
  name: 'chat',
  config: chatConfig,
  start: async (kit) => {
    const { config, logger } = kit;
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    const adapter = adapterRedisClient(config.REDIS_URL, logger, 'chat hub');
    const service = await createChatService({
      db,
      bus,
      redis,
      adapterRedis: adapter.client,
      logger,
      verifyToken: kit.verifyToken,
      allowOrigin: originPolicy({ publicUrl: config.PUBLIC_URL, allowed: config.CHAT_ALLOWED_ORIGINS, local: config.RUILPLEIN_MODE === 'local' }),
    });
    return { ...service, workers: [...(service.workers ?? []), adapter] };
  },
});
