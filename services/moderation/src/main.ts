import { runService } from '@ruilplein/service-kit';
import { createModerationService, moderationConfig } from './app.ts';

await runService({
  name: 'moderation',
  config: moderationConfig,
  start: async (kit) => {
    const [db, bus, redis] = await Promise.all([kit.mongo(), kit.nats(), kit.redis()]);
    return createModerationService({ db, bus, redis, logger: kit.logger, verifyToken: kit.verifyToken, config: kit.config });
  },
});
