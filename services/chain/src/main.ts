import { runService } from '@ruilplein/service-kit';
import { chainConfig, createChainService } from './app.ts';

await runService({
  name: 'chain',
  config: chainConfig,
  start: async (kit) => {
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    return createChainService({ db, bus, redis, logger: kit.logger, verifyToken: kit.verifyToken });
  },
});
