import { runService } from '@ruilplein/service-kit';
import { createPaymentService, paymentConfig } from './app.ts';

await runService({
  name: 'payment',
  config: paymentConfig,
  start: async (kit) => {
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    return createPaymentService({ db, bus, redis, logger: kit.logger, verifyToken: kit.verifyToken, config: kit.config });
  },
});
