// The API gateway: path check, routing from the contracts' registry, token check and revocation,
// per-client and per-user limits, then a plain streaming pass-through to the owning service.
// Every request passes here, so the hot path is plain node http with as little work per request
// as the checks allow (bench:gateway; docs/decisions.md "Why is the gateway plain node http, …").
import { randomFillSync, randomUUID } from 'node:crypto';
import { ServerResponse, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { activeSuspension, apiRoutes, clusterUrl, SERVICE_NAMES, serviceFor, tokenVersionKey, upstreamVariable, type ServiceName } from '@ruilplein/contracts';
import {
  bearerToken,
  checkedUrl,
  currentTraceHeaders,
  forwardedFor,
  forwardedHost,
  forwardedProto,
  GATEWAY_PROXY_HOPS,
  HttpError,
  INVALID_PATH,
  MESSAGES,
  nowMs,
  redisConfigSchema,
  takesConnections,
  traceRequests,
  UPGRADED,
  trustedProxyHops,
  unauthorized,
  type Logger,
  type Principal,
  type TokenVerifier,
} from '@ruilplein/service-kit';
import express, { type Express, type Request, type Response } from 'express';
import helmet from 'helmet';
import { createProxyServer } from 'http-proxy-3';
import type { RedisClientType } from 'redis';
import { Pool, type Dispatcher } from 'undici';
import { z } from 'zod';
import { SharedLimiter, type LimiterStore } from './limiter.ts';
import { isHubPath, openWhileSuspended, publicRoutes } from './routes.ts';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * A service's replicas: one URL, or several comma-separated (the local clustered mode,
 * `npm start -- --replicas 2`), each an http(s) URL.
 */
const upstreamUrls = z
  .string()
  .refine((value) => splitUpstreams(value).every((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)), 'expected one URL or several, comma-separated');

/** `UPSTREAM_<SERVICE>` for every service of the registry, defaulting to its Kubernetes service name. */
const upstreams = Object.fromEntries(SERVICE_NAMES.map((s) => [upstreamVariable(s), upstreamUrls.default(clusterUrl(s))])) as {
  [S in ServiceName as ReturnType<typeof upstreamVariable<S>>]: z.ZodDefault<typeof upstreamUrls>;
};

const splitUpstreams = (value: string) =>
  value
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);

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
  /**
   * Record an OpenTelemetry span per request (main.ts: when traces are exported). Otherwise the
   * gateway only continues the caller's trace context, with a span id of its own, as an unexported
   * span would: services and logs see the same trace ids at a fraction of the cost.
   */
  recordSpans?: boolean;
}

export interface Gateway {
  app: Express;
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes the idle keep-alive connections to the upstreams and stops the limiters' flushes. */
  close(): void;
}

/** A Redis that does not answer within this is treated as down, rather than holding requests. */
const REDIS_TIMEOUT_MS = 500;
/** socket.io long-polling holds a GET until there is news or its 25 s ping is due. */
const HUB_TIMEOUT_MS = 60_000;
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const JSON_TYPE = 'application/json; charset=utf-8';
/** Headers about the connection to the gateway, not about the request (RFC 9110 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'expect'] as const;
const HEALTH = /^\/(?:healthz|readyz)\/?$/i;
/** Methods a retry cannot repeat an effect of. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A replica that refused a connection is passed over for this long (another one is asked at once). */
const REFUSED_PAUSE_MS = 1000;

/** One replica of a service. */
interface Upstream {
  url: URL;
  pool: Pool;
  /** Its path prefix, without the trailing slash. */
  base: string;
  /** Until then it is asked only when every replica refused. */
  refusedUntil: number;
}
/** helmet's headers, taken once: the gateway's own answers carry them; a service's answers carry its own. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = (() => {
  const headers: Record<string, string> = {};
  const collect = { setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)), removeHeader: () => {} };
  // helmet only calls setHeader/removeHeader: a stand-in, not a ServerResponse, hence the cast.
  helmet()({} as IncomingMessage, collect as unknown as ServerResponse, () => {});
  return headers;
})();

class UpstreamTimeout extends Error {
  constructor() {
    super('upstream did not answer in time');
  }
}

const unavailable = () => new HttpError(503, MESSAGES.unavailable);

/** One request on its way through the gateway. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  id: string;
  started: number;
  /** The checked path, without query; empty until the path check passed. */
  path: string;
  traceId: string;
  spanId: string;
  upgrade: { socket: Duplex; head: Buffer } | undefined;
  /** Aborts the request to the service, once it is under way. */
  upstream: Dispatcher.DispatchController | undefined;
  /** The client left before its answer was complete. */
  gone: boolean;
}

export function createGateway(deps: GatewayDeps): Gateway {
  const { config, logger, verifyToken } = deps;
  const keyPrefix = deps.keyPrefix ?? 'gateway:rate';
  const hops = deps.trustedProxyHops ?? trustedProxyHops(GATEWAY_PROXY_HOPS);
  const redis = deps.redis.withCommandOptions({ timeout: REDIS_TIMEOUT_MS });
  const isPublic = publicRoutes(apiRoutes);
  const mayWhileSuspended = openWhileSuspended(apiRoutes);
  const logRequests = logger.isLevelEnabled('info');

  // While Redis is away each gateway counts on its own instead of failing every request.
  const limiter = (kind: 'ip' | 'user', points: number) =>
    new SharedLimiter({ store: redis as LimiterStore, prefix: `${keyPrefix}:${kind}`, points, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS });
  const perIp = limiter('ip', config.RATE_LIMIT_PER_IP);
  const perUser = limiter('user', config.RATE_LIMIT_PER_USER);

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

  // --- answers of the gateway itself

  function answer(ex: Exchange, status: number, body: unknown, refusal: boolean, extra?: OutgoingHttpHeaders) {
    const { res } = ex;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const text = JSON.stringify(body);
    const headers: OutgoingHttpHeaders = {
      ...SECURITY_HEADERS,
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(text),
      'x-request-id': ex.id,
      ...extra,
    };
    // The gateway's own refusals are about this caller at this moment: never kept by a cache.
    if (refusal) headers['cache-control'] = 'no-store';
    res.writeHead(status, headers).end(text);
  }

  const refuse = (ex: Exchange, status: number, message: string, extra?: OutgoingHttpHeaders) => answer(ex, status, { message }, true, extra);

  function fail(ex: Exchange, err: unknown) {
    if (err instanceof HttpError) {
      refuse(ex, err.status, err.message, err.status === 401 ? { 'www-authenticate': 'Bearer' } : undefined);
      return;
    }
    logger.error({ err, req: { id: ex.id }, traceId: ex.traceId }, 'request failed');
    refuse(ex, 500, MESSAGES.internal);
  }

  // --- the pipeline

  function handle(req: IncomingMessage, res: ServerResponse, upgrade?: { socket: Duplex; head: Buffer }) {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.headers['x-request-id'] = id;
    const ex: Exchange = { req, res, id, started: performance.now(), path: '', traceId: '', spanId: '', upgrade, upstream: undefined, gone: false };
    res.once('close', () => closed(ex));
    if (!deps.recordSpans) {
      continueTrace(ex);
      run(ex);
      return;
    }
    // The kit's server span; it names the span after req.path, which express would have set.
    const path = req.url?.split('?', 1)[0];
    // Node's own request and response, not express': the kit's middleware reads only what both have.
    traceRequests(Object.assign(req, { path }) as unknown as Request, res as unknown as Response, () => {
      const traceparent = currentTraceHeaders().traceparent ?? '';
      [, ex.traceId = '', ex.spanId = ''] = traceparent.split('-');
      run(ex);
    });
  }

  /** A bug on the way is a logged 500 for this request, never a crash of the gateway. */
  function run(ex: Exchange) {
    try {
      route(ex);
    } catch (err) {
      fail(ex, err);
    }
  }

  function route(ex: Exchange) {
    const { req } = ex;
    // Routing, the public-route check and the upstream all see one path: `..` and encoded slashes are refused.
    const url = checkedUrl(req.url);
    if (url === undefined) return refuse(ex, 400, INVALID_PATH);
    req.url = url;
    const q = url.indexOf('?');
    const path = (ex.path = q === -1 ? url : url.slice(0, q));
    if (HEALTH.test(path) && !ex.upgrade && (req.method === 'GET' || req.method === 'HEAD')) return health(ex, path);
    const service = serviceFor(path);
    // Unknown paths, and upgrades anywhere but the hub, end here before any token is looked at.
    if (!service || (ex.upgrade && !isHubPath(path))) return refuse(ex, 404, MESSAGES.notFound);
    const ipWait = perIp.take(forwardedFor(req, hops));
    if (ipWait) return refuse(ex, 429, MESSAGES.tooManyRequests, { 'retry-after': String(ipWait) });
    // Browsers cannot set headers on a websocket, so hub clients may send the token in the query.
    const token = bearerToken(req) ?? (isHubPath(path) ? queryToken(url) : undefined);
    const open = isPublic(req.method ?? '', path);
    if (!token) return open ? forward(ex, service) : fail(ex, unauthorized());
    void authenticate(token).then(
      (principal) => {
        // The suspension rides in the token and ends by its date (contracts auth/suspensions.ts).
        const suspension = principal.suspension && !mayWhileSuspended(req.method ?? '', path) ? activeSuspension(principal.suspension, nowMs()) : undefined;
        if (suspension) return answer(ex, 403, suspension, true);
        const userWait = perUser.take(principal.userId);
        if (userWait) return refuse(ex, 429, MESSAGES.tooManyRequests, { 'retry-after': String(userWait) });
        forward(ex, service);
      },
      (err: unknown) => {
        if (!open) return fail(ex, err);
        // A stale token must not break a public page, and the service must not act on a revoked one.
        delete req.headers.authorization;
        forward(ex, service);
      },
    ).catch((err: unknown) => fail(ex, err));
  }

  function health(ex: Exchange, path: string) {
    if (path.toLowerCase().startsWith('/healthz')) return answer(ex, 200, { status: 'ok' }, false);
    const pinged = redis.isReady ? redis.ping().then(() => true, () => false) : Promise.resolve(false);
    void pinged.then((ok) =>
      answer(ex, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', checks: { redis: ok ? 'ok' : 'unreachable' } }, false),
    );
  }

  // --- to the service

  // undici: a pass-through costs about 40 µs of CPU less per request than node's http.request.
  const replicas = Object.fromEntries(
    SERVICE_NAMES.map((s) => [
      s,
      splitUpstreams(config[upstreamVariable(s)]).map((u): Upstream => {
        const url = new URL(u);
        return { url, pool: new Pool(url.origin, { connections: 1024 }), base: url.pathname.replace(/\/$/, ''), refusedUntil: 0 };
      }),
    ]),
  ) as Record<ServiceName, Upstream[]>;
  const turns = Object.fromEntries(SERVICE_NAMES.map((s) => [s, 0])) as Record<ServiceName, number>;

  /** Round-robin over the service's replicas, passing over one that just refused (unless all did). */
  function pick(service: ServiceName, not?: Upstream): Upstream {
    const list = replicas[service];
    if (list.length === 1) return list[0]!;
    const now = performance.now();
    for (let i = 0; i < list.length; i++) {
      const candidate = list[turns[service]++ % list.length]!;
      if (candidate !== not && candidate.refusedUntil <= now) return candidate;
    }
    return list.find((u) => u !== not) ?? list[0]!;
  }

  /** After a refused connection: the next replica to ask, or none when each was asked once. */
  function another(service: ServiceName, refused: Upstream, tried: number): Upstream | undefined {
    refused.refusedUntil = performance.now() + REFUSED_PAUSE_MS;
    return tried < replicas[service].length ? pick(service, refused) : undefined;
  }
  // Websockets only: a long-lived connection of their own, frames piped both ways.
  const wsProxy = createProxyServer({ agent: false });
  const upgraded = new WeakMap<IncomingMessage, { ex: Exchange; upstream: Upstream }>();
  wsProxy.on('proxyReqWs', (proxyReq, req) => {
    proxyReq.setTimeout(config.UPSTREAM_TIMEOUT_MS, () => proxyReq.destroy(new UpstreamTimeout()));
    // From here on the socket carries websocket frames: no HTTP answer may be written to it.
    proxyReq.once('upgrade', () => {
      const { res } = upgraded.get(req)!.ex;
      res.statusCode = 101;
      // Its server span ends here: the response never finishes, and the upstream's spans name it as parent.
      res.emit(UPGRADED);
    });
  });
  wsProxy.on('error', (err, req) => {
    const ws = upgraded.get(req);
    if (!ws) return;
    if (isRefused(err)) ws.upstream.refusedUntil = performance.now() + REFUSED_PAUSE_MS;
    upstreamFailed(ws.ex, err);
  });

  /**
   * The proxy closes the client's socket when the upstream refuses, so with several replicas the
   * gateway first makes sure the one it picked takes connections (one connect per hub session).
   */
  async function upgrade(ex: Exchange, service: ServiceName) {
    let upstream = pick(service);
    for (let tried = 1; replicas[service].length > 1 && !(await takesConnections(upstream.url)); tried++) {
      const next = another(service, upstream, tried);
      if (!next) return upstreamFailed(ex, Object.assign(new Error('every replica refused the connection'), { code: 'ECONNREFUSED' }));
      upstream = next;
    }
    if (ex.gone) return;
    upgraded.set(ex.req, { ex, upstream });
    wsProxy.ws(ex.req, ex.upgrade!.socket, ex.upgrade!.head, { target: upstream.url });
  }

  function forward(ex: Exchange, service: ServiceName) {
    const { req } = ex;
    const headers = req.headers;
    const prior = headers['x-forwarded-for'];
    const peer = req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = prior ? `${prior}, ${peer}` : peer;
    headers['x-forwarded-proto'] = forwardedProto(req, hops);
    const host = forwardedHost(req, hops);
    if (host) headers['x-forwarded-host'] = host;
    if (deps.recordSpans) Object.assign(headers, currentTraceHeaders());
    if (ex.upgrade) return void upgrade(ex, service).catch((err: unknown) => fail(ex, err));
    // Node already answered `expect: 100-continue`; the rest describe the client's connection, and
    // the body's framing is undici's to choose.
    for (const name of HOP_BY_HOP) delete headers[name];
    delete headers['transfer-encoding'];
    send(ex, service, pick(service), false, 1);
  }

  /** `tried`: replicas asked for this request so far, this one included. */
  function send(ex: Exchange, service: ServiceName, upstream: Upstream, retried: boolean, tried: number) {
    const { req } = ex;
    // Idle limits, as a socket timeout would be: waiting for the answer (refreshed while a body
    // is still being sent) and between two chunks of it.
    const timeout = isHubPath(ex.path) ? HUB_TIMEOUT_MS : config.UPSTREAM_TIMEOUT_MS;
    upstream.pool.dispatch(
      {
        path: upstream.base + req.url,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: hasBody(req) ? req : null,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      },
      new Relay(ex, service, upstream, retried, tried),
    );
  }

  /** The service's answer, streamed to the client as it comes. */
  class Relay implements Dispatcher.DispatchHandler {
    readonly ex: Exchange;
    readonly service: ServiceName;
    readonly upstream: Upstream;
    readonly retried: boolean;
    readonly tried: number;

    constructor(ex: Exchange, service: ServiceName, upstream: Upstream, retried: boolean, tried: number) {
      this.ex = ex;
      this.service = service;
      this.upstream = upstream;
      this.retried = retried;
      this.tried = tried;
    }

    onRequestStart(controller: Dispatcher.DispatchController) {
      if (this.ex.gone) controller.abort(new Error('the client left'));
      else this.ex.upstream = controller;
    }

    onResponseStart(_: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders, statusMessage?: string) {
      delete headers['x-powered-by'];
      // Node frames the answer to the client itself (chunked when the service gave no length).
      for (const name of HOP_BY_HOP) delete headers[name];
      delete headers['transfer-encoding'];
      headers['x-request-id'] = this.ex.id;
      this.ex.res.writeHead(status, statusMessage, headers);
    }

    onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
      if (this.ex.res.write(chunk)) return;
      controller.pause();
      this.ex.res.once('drain', () => controller.resume());
    }

    onResponseEnd() {
      this.ex.res.end();
    }

    onResponseError(_: Dispatcher.DispatchController, err: Error) {
      const { ex } = this;
      if (ex.gone) return;
      const code = (err as { code?: string }).code;
      // undici checks what it sends more strictly than node read it: a request it refuses to send.
      if (code === 'UND_ERR_INVALID_ARG' && !ex.res.headersSent) return refuse(ex, 400, MESSAGES.invalidInput);
      // A replica that refused the connection got nothing of the request, body included: another
      // replica may take it, whatever its method.
      const next = isRefused(err) && !ex.res.headersSent ? another(this.service, this.upstream, this.tried) : undefined;
      if (next) return send(ex, this.service, next, this.retried, this.tried + 1);
      // A kept-alive connection the service closed just as it was reused: a read is safe to send
      // once more, on another connection.
      const reset = code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
      if (reset && !this.retried && !ex.res.headersSent && SAFE_METHODS.has(ex.req.method ?? '') && !hasBody(ex.req)) return send(ex, this.service, this.upstream, true, this.tried);
      const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
      upstreamFailed(ex, timedOut ? new UpstreamTimeout() : err);
    }
  }

  function upstreamFailed(ex: Exchange, err: Error) {
    const { res } = ex;
    if (res.headersSent || res.statusCode === 101) {
      res.destroy();
      return;
    }
    const timedOut = err instanceof UpstreamTimeout;
    logger.warn({ err, req: { id: ex.id }, traceId: ex.traceId }, timedOut ? 'upstream timed out' : 'upstream unreachable');
    refuse(ex, timedOut ? 504 : 503, timedOut ? MESSAGES.timeout : MESSAGES.unavailable);
  }

  /** The client's connection is done with this request: finished, refused or gone. */
  function closed(ex: Exchange) {
    const { req, res } = ex;
    if (!res.writableFinished && res.statusCode !== 101) {
      // The client left: nothing is answered any more, and the upstream's error is not news.
      ex.gone = true;
      ex.upstream?.abort(new Error('the client left'));
    }
    if (!logRequests || HEALTH.test(ex.path)) return;
    logger.info(
      {
        req: { id: ex.id, method: req.method, url: redactToken(req.url) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - ex.started),
        ...(ex.traceId && { traceId: ex.traceId, spanId: ex.spanId }),
      },
      res.writableFinished || res.statusCode === 101 ? 'request completed' : 'request aborted',
    );
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    // The upgrade runs through the same pipeline; a refusal is a real HTTP response on the socket.
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.destroy());
    handle(req, res, { socket, head });
  }

  // runService serves an express app; the gateway answers every request itself, sparing each one
  // express' own setup (prototype swaps, router) that it has no use for.
  const app = express();
  // express' `handle` is internal (not in its types): replaced here, so the cast.
  (app as unknown as { handle: (req: IncomingMessage, res: ServerResponse) => void }).handle = (req, res) => handle(req, res);

  return {
    app,
    onUpgrade,
    close: () => {
      perIp.stop();
      perUser.stop();
      for (const list of Object.values(replicas)) for (const { pool } of list) void pool.destroy();
    },
  };
}

const isRefused = (err: Error) => (err as { code?: string }).code === 'ECONNREFUSED';

const hasBody = (req: IncomingMessage) => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

function queryToken(url: string): string | undefined {
  return URL.parse(url, 'http://gateway')?.searchParams.get('access_token') || undefined;
}

/** Hub URLs may carry a token; it must not end up in the logs. */
function redactToken(url = ''): string {
  return url.includes('access_token') ? url.replace(/([?&]access_token=)[^&]*/gi, '$1[redacted]') : url;
}

// W3C trace context without a recorded span: the caller's trace (or a new one), a span id of our own.
const TRACEPARENT = /^\s?([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?\s?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

function continueTrace(ex: Exchange) {
  const headers = ex.req.headers;
  const parent = typeof headers.traceparent === 'string' ? TRACEPARENT.exec(headers.traceparent) : null;
  // As the OpenTelemetry propagator reads it: version ff and a version 00 with more fields are invalid.
  const valid = parent && parent[1] !== 'ff' && !(parent[1] === '00' && parent[5]) && parent[2] !== ZERO_TRACE && parent[3] !== ZERO_SPAN;
  let flags = '01';
  if (valid) {
    ex.traceId = parent[2]!;
    // A parent-based sampler follows the caller's sampling decision.
    flags = (parseInt(parent[4]!, 16) & 1) === 1 ? '01' : '00';
  } else {
    ex.traceId = randomHex(16);
    delete headers.tracestate;
  }
  ex.spanId = randomHex(8);
  headers.traceparent = `00-${ex.traceId}-${ex.spanId}-${flags}`;
}

const entropy = Buffer.alloc(4096);
let entropyUsed = entropy.length;

function randomHex(bytes: number): string {
  if (entropyUsed + bytes > entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  entropyUsed += bytes;
  return entropy.toString('hex', entropyUsed - bytes, entropyUsed);
}
