import { runService } from '@ruilplein/service-kit';
import { createClient } from 'redis';
import { createGateway, gatewayConfig } from './app.ts';

await runService({
  name: 'gateway',
  config: gatewayConfig,
  start: async ({ config, logger, verifyToken }) => {
    // Without the offline queue, commands fail at once while Redis is away and the gateway falls back.
    const redis = createClient({ url: config.REDIS_URL, disableOfflineQueue: true });
    redis.on('error', (err) => logger.warn({ err }, 'redis connection failed'));
    // Not awaited: the gateway serves (public routes, in-memory rate limits) before Redis is up.
    redis.connect().catch((err) => logger.error({ err }, 'redis gave up connecting'));
    // Spans are recorded only when they are exported; otherwise the gateway just continues the trace.
    const gateway = createGateway({ config, logger, verifyToken, redis, recordSpans: config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined });
    const stop = async () => {
      gateway.close();
      if (redis.isOpen) await redis.quit();
    };
    return { app: gateway.app, onUpgrade: gateway.onUpgrade, workers: [{ stop }] };
  },
});
