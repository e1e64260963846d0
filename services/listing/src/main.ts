import { runService } from '@ruilplein/service-kit';
import { createListingService, listingConfig } from './app.ts';

await runService({
  name: 'listing',
  config: listingConfig,
  start: async (kit) => {
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    return createListingService({ db, bus, redis, logger: kit.logger, verifyToken: kit.verifyToken, local: kit.config.RUILPLEIN_MODE === 'local' });
  },
});
