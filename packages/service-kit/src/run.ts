import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { createClient, type RedisClientType } from 'redis';
import type { z } from 'zod';
import { createTokenVerifier, type TokenVerifier } from './auth.ts';
import { baseConfigSchema, ConfigError, mongoConfigSchema, natsConfigSchema, parseConfig, redisConfigSchema } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { connectMongo, pingMongo, type Connection } from './mongo.ts';
import { connectBus, type Bus, type Worker } from './nats.ts';
import { startTelemetry } from './telemetry.ts';

type BaseConfig = z.output<typeof baseConfigSchema>;

export interface StartKit<C> {
  name: string;
  config: C & BaseConfig;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Connects to this service's own database (named after it); closed on shutdown. */
  mongo(): Promise<Connection>;
  /** Connects to NATS; drained on shutdown. */
  nats(): Promise<Bus>;
  /**
   * A Redis client on REDIS_URL (pass it to createApp for declared rate limits); closed on
   * shutdown. It connects in the background and retries: while Redis is away its commands fail at
   * once (no offline queue), so callers answer 503 instead of hanging.
   */
  redis(): Promise<RedisClientType>;
}

export interface ServiceParts {
  app: Express;
  /** Background work (relays, consumers, responders, clients), stopped in order on shutdown. */
  workers?: Worker[];
  /** Handles HTTP upgrades (websockets) on the service's server. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

/** Readiness checks of a service with a store and NATS, for /readyz. */
export function storeReadiness(deps: { db: Connection; bus: Bus }) {
  return {
    mongodb: () => pingMongo(deps.db),
    nats: () => deps.bus.nc.flush(),
  };
}

/**
 * The whole life of a service process: config, telemetry, connections, HTTP, and a graceful
 * shutdown on SIGTERM/SIGINT (stop accepting, finish requests, stop workers, drain NATS, close the
 * store, exit 0). A service's main.ts is one call to this.
 */
export async function runService<S extends z.ZodObject>(options: {
  name: string;
  config: S;
  start: (kit: StartKit<z.output<S>>) => Promise<ServiceParts>;
}): Promise<void> {
  const { name } = options;
  const fail = (err: unknown, logger?: Logger): never => {
    if (err instanceof ConfigError) process.stderr.write(`${name}: ${err.message}\n`);
    else if (logger) logger.fatal({ err }, `${name} failed to start`);
    else process.stderr.write(`${name}: failed to start: ${String(err)}\n`);
    process.exit(1);
  };
  let config: z.output<S> & BaseConfig;
  try {
    config = parseConfig(baseConfigSchema.extend(options.config.shape), process.env) as z.output<S> & BaseConfig;
  } catch (err) {
    return fail(err);
  }
  const stopTelemetry = startTelemetry(name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = createLogger(name, config.LOG_LEVEL);
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const parts = await options.start({
      name,
      config,
      logger,
      verifyToken: createTokenVerifier(config.AUTH_JWKS_URL),
      async mongo() {
        const db = await connectMongo(parseConfig(mongoConfigSchema).MONGODB_URL, name);
        closers.push(() => db.close());
        return db;
      },
      async nats() {
        const bus = await connectBus(parseConfig(natsConfigSchema).NATS_URL, name);
        closers.unshift(() => bus.nc.drain());
        return bus;
      },
      async redis() {
        const redis: RedisClientType = createClient({ url: parseConfig(redisConfigSchema).REDIS_URL, disableOfflineQueue: true });
        redis.on('error', (err) => logger.warn({ err }, 'redis connection failed'));
        redis.connect().catch((err: unknown) => logger.error({ err }, 'redis gave up connecting'));
        closers.push(async () => {
          // A client still retrying has nothing to flush: stop it rather than wait for a server.
          if (redis.isReady) await redis.quit();
          else if (redis.isOpen) redis.destroy();
        });
        return redis;
      },
    });
    // HOST: `npm start` binds 127.0.0.1 (the local edge is the only door); unset, every interface (containers).
    const host = process.env.HOST?.trim() || undefined;
    const server = host ? parts.app.listen(config.PORT, host) : parts.app.listen(config.PORT);
    // Upgraded connections (websockets) have no request to finish, and server.close() would wait for
    // them forever: they are closed when shutdown begins, and their clients reconnect elsewhere.
    const upgraded = new Set<Duplex>();
    const { onUpgrade } = parts;
    if (onUpgrade) {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        upgraded.add(socket);
        socket.once('close', () => upgraded.delete(socket));
        onUpgrade(req, socket, head);
      });
    }
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    logger.info({ port: config.PORT, host: host ?? '*' }, `${name} listening`);
    onShutdown(logger, async () => {
      const closing = closeServer(server);
      for (const socket of upgraded) socket.destroy();
      await closing;
      for (const worker of parts.workers ?? []) await worker.stop();
      for (const close of closers) await close();
      await stopTelemetry();
    });
  } catch (err) {
    fail(err, logger);
  }
}

export function closeServer(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), graceMs).unref();
  });
}

/** Runs `stop` once on the first SIGTERM/SIGINT and exits 0 (1 if stopping failed). */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
