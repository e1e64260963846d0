import { runService } from '@ruilplein/service-kit';
import { createTradeService, tradeConfig } from './app.ts';

await runService({
  name: 'trade',
  config: tradeConfig,
  start: async (kit) => {
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    return createTradeService({ db, bus, redis, logger: kit.logger, verifyToken: kit.verifyToken });
  },
});
