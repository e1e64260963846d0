import { runService } from '@ruilplein/service-kit';
import { authConfig, checkAuthConfig, createAuthService } from './app.ts';

await runService({
  name: 'auth',
  config: authConfig,
  start: async (kit) => {
    checkAuthConfig(kit.config);
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    return createAuthService({ db, bus, redis, logger: kit.logger, config: kit.config });
  },
});
