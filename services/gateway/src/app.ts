import { Agent, ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { apiRoutes, clusterUrl, tokenVersionKey, upstreamVariable } from '@ruilplein/contracts';
import {
  bearerToken,
  checkPath,
  clientAddress,
  currentTraceHeaders,
  errorHandler,
  GATEWAY_PROXY_HOPS,
  HttpError,
  MESSAGES,
  redisConfigSchema,
  requestId,
  requestLogging,
  traceRequests,
  trustedProxyHops,
  trustProxies,
  unauthorized,
  type Logger,
  type Principal,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { createProxyServer } from 'http-proxy-3';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClientType } from 'redis';
import { z } from 'zod';
import { isHubPath, publicRoutes, serviceFor, SERVICES, type Service } from './routes.ts';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** `UPSTREAM_<SERVICE>` for every service of the registry, defaulting to its Kubernetes service name. */
const upstreams = Object.fromEntries(SERVICES.map((s) => [upstreamVariable(s), z.url().default(clusterUrl(s))])) as {
  [S in Service as ReturnType<typeof upstreamVariable<S>>]: z.ZodDefault<z.ZodURL>;
};

/** Variables of the gateway beyond the kit's own. */
export const gatewayConfig = redisConfigSchema.extend({
  ...upstreams,
  UPSTREAM_TIMEOUT_MS: positive(5000),
  RATE_LIMIT_PER_IP: positive(600),
  RATE_LIMIT_PER_USER: positive(600),
  RATE_LIMIT_WINDOW_SECONDS: positive(60),
});
export type GatewayConfig = z.output<typeof gatewayConfig>;

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  verifyToken: TokenVerifier;
  redis: RedisClientType;
  /** Prefix of the rate limiters' Redis keys; tests give each gateway its own. */
  keyPrefix?: string;
  /** Proxies in front of the gateway (TRUSTED_PROXY_HOPS, default 1: the ingress controller or the local edge). */
  trustedProxyHops?: number;
}

export interface Gateway {
  app: Express;
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes the idle keep-alive connections to the upstreams. */
  close(): void;
}

/** A Redis that does not answer within this is treated as down, rather than holding requests. */
const REDIS_TIMEOUT_MS = 500;
/** socket.io long-polling holds a GET until there is news or its 25 s ping is due. */
const HUB_TIMEOUT_MS = 60_000;

class UpstreamTimeout extends Error {
  constructor() {
    super('upstream did not answer in time');
  }
}

const unavailable = () => new HttpError(503, MESSAGES.unavailable);

export function createGateway(deps: GatewayDeps): Gateway {
  const { config, logger, verifyToken } = deps;
  const keyPrefix = deps.keyPrefix ?? 'gateway:rate';
  const redis = deps.redis.withCommandOptions({ timeout: REDIS_TIMEOUT_MS });
  const targets = Object.fromEntries(SERVICES.map((s) => [s, new URL(config[upstreamVariable(s)])])) as Record<Service, URL>;
  const isPublic = publicRoutes(apiRoutes);

  const limiter = (kind: 'ip' | 'user', points: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      useRedisPackage: true,
      // While Redis is away each gateway counts on its own instead of failing every request.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: config.RATE_LIMIT_WINDOW_SECONDS }),
      keyPrefix: `${keyPrefix}:${kind}`,
      points,
      duration: config.RATE_LIMIT_WINDOW_SECONDS,
    });
  const perIp = limiter('ip', config.RATE_LIMIT_PER_IP);
  const perUser = limiter('user', config.RATE_LIMIT_PER_USER);

  async function consume(rateLimiter: RateLimiterRedis, key: string, res: Response) {
    try {
      await rateLimiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res.setHeader('retry-after', Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw new HttpError(429, MESSAGES.tooManyRequests);
    }
  }

  /** Signature, expiry, issuer and audience (the kit), then revocation: a newer token version in Redis. */
  async function authenticate(token: string): Promise<Principal> {
    const principal = await verifyToken(token);
    // Fail closed: without Redis a revoked (logged out, banned) token cannot be told apart.
    if (!redis.isReady) throw unavailable();
    let current: string | null;
    try {
      current = await redis.get(tokenVersionKey(principal.userId));
    } catch {
      throw unavailable();
    }
    if (current !== null && Number(current) > principal.tokenVersion) throw unauthorized();
    return principal;
  }

  async function principalOf(req: Request): Promise<Principal | undefined> {
    // Browsers cannot set headers on a websocket, so hub clients may send the token in the query.
    const token = bearerToken(req) ?? (isHubPath(req.path) ? queryToken(req.url) : undefined);
    const open = isPublic(req.method, req.path);
    if (!token) {
      if (open) return undefined;
      throw unauthorized();
    }
    try {
      return await authenticate(token);
    } catch (err) {
      if (!open) throw err;
      // A stale token must not break a public page, and the service must not act on a revoked one.
      delete req.headers.authorization;
      return undefined;
    }
  }

  const agent = new Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 256 });
  const proxy = createProxyServer({ agent });
  proxy.on('proxyReq', (proxyReq, req) => {
    const ms = isHubPath((req as Request).path) ? HUB_TIMEOUT_MS : config.UPSTREAM_TIMEOUT_MS;
    proxyReq.setTimeout(ms, () => proxyReq.destroy(new UpstreamTimeout()));
  });
  proxy.on('proxyReqWs', (proxyReq, req) => {
    proxyReq.setTimeout(config.UPSTREAM_TIMEOUT_MS, () => proxyReq.destroy(new UpstreamTimeout()));
    // From here on the socket carries websocket frames: no HTTP answer may be written to it.
    proxyReq.once('upgrade', () => {
      (req as Request).res!.statusCode = 101;
    });
  });
  proxy.on('proxyRes', (proxyRes) => {
    delete proxyRes.headers['x-powered-by'];
  });
  proxy.on('error', (err, req) => {
    const res = (req as Request).res!;
    if (res.headersSent || res.statusCode === 101) {
      res.destroy();
      return;
    }
    const timedOut = err instanceof UpstreamTimeout;
    (req as Request).log.warn({ err }, timedOut ? 'upstream timed out' : 'upstream unreachable');
    res.status(timedOut ? 504 : 503).set('cache-control', 'no-store').json({ message: timedOut ? MESSAGES.timeout : MESSAGES.unavailable });
  });

  const upgrades = new WeakMap<IncomingMessage, { socket: Duplex; head: Buffer }>();

  function forward(req: Request, res: Response, service: Service) {
    const client = req.socket.remoteAddress ?? '';
    const prior = req.headers['x-forwarded-for'];
    req.headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
    req.headers['x-forwarded-proto'] = req.protocol;
    if (req.host) req.headers['x-forwarded-host'] = req.host;
    Object.assign(req.headers, currentTraceHeaders());
    const upgrade = upgrades.get(req);
    // A websocket lives long: its own connection, not one of the pool's.
    if (upgrade) return proxy.ws(req, upgrade.socket, upgrade.head, { target: targets[service], agent: false });
    // Hop-by-hop headers describe the client's connection, not ours; node already answered `expect`.
    delete req.headers.connection;
    delete req.headers['keep-alive'];
    delete req.headers.expect;
    proxy.web(req, res, { target: targets[service] });
  }

  const app = express();
  app.disable('x-powered-by');
  // The ingress controller or the local edge sits in front and overwrites X-Forwarded-For: the
  // client is the address it saw, never what a client wrote into the header.
  trustProxies(app, deps.trustedProxyHops ?? trustedProxyHops(GATEWAY_PROXY_HOPS));
  app.use(helmet());
  app.use(requestId);
  app.use(traceRequests);
  app.use(requestLogging(logger, redactToken));
  // Routing, the public-route check and the upstream all see one path: `..` and encoded slashes are refused.
  app.use(checkPath);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ok = redis.isReady && (await redis.ping().then(() => true, () => false));
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready', checks: { redis: ok ? 'ok' : 'unreachable' } });
  });

  app.use(async (req: Request, res: Response) => {
    const service = serviceFor(req.path);
    // Unknown paths, and upgrades anywhere but the hub, end here before any token is looked at.
    if (!service || (upgrades.has(req) && !isHubPath(req.path))) throw new HttpError(404, MESSAGES.notFound);
    await consume(perIp, clientAddress(req), res);
    const principal = await principalOf(req);
    if (principal) await consume(perUser, principal.userId, res);
    forward(req, res, service);
  });
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof HttpError && err.status === 401) res.setHeader('www-authenticate', 'Bearer');
    // The gateway's own refusals are about this caller at this moment: never kept by a cache.
    if (!res.headersSent) res.setHeader('cache-control', 'no-store');
    next(err);
  });
  app.use(errorHandler(logger));

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    // The upgrade runs through the same pipeline; a refusal is a real HTTP response on the socket.
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.destroy());
    upgrades.set(req, { socket, head });
    app(req, res);
  }

  return { app, onUpgrade, close: () => agent.destroy() };
}

function queryToken(url: string): string | undefined {
  return URL.parse(url, 'http://gateway')?.searchParams.get('access_token') || undefined;
}

/** Hub URLs may carry a token; it must not end up in the logs. */
function redactToken(url = ''): string {
  return url.replace(/([?&]access_token=)[^&]*/gi, '$1[redacted]');
}
