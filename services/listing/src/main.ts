import { runService } from '@ruilplein/service-kit';
import { createListingService, listingConfig } from './app.ts';

await runService({
  name: 'listing',
  config: listingConfig,
  start: async (kit) => {
    const [db, bus] = await Promise.all([kit.mongo(), kit.nats()]);
    return createListingService({ db, bus, logger: kit.logger, verifyToken: kit.verifyToken });
  },
});
