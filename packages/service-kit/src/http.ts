import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { activeSuspension, pathWithoutIds, registry, SERVICE_NAMES, type RouteDef, type ServiceName } from '@ruilplein/contracts';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { z } from 'zod';
import { bearerToken, isAdmin, type Principal, type TokenVerifier } from './auth.ts';
import { clientAddress, SERVICE_PROXY_HOPS, trustedProxyHops, trustProxies } from './client.ts';
import { nowMs } from './clock.ts';
import { badRequest, forbidden, HttpError, MESSAGES, suspendedError, unauthorized } from './errors.ts';
import { readForm, type UploadedFile } from './form.ts';
import type { Logger } from './logger.ts';
import { recordDuration } from './metrics.ts';
import { openApiDocument } from './openapi.ts';
import { checkPath } from './paths.ts';
import { countCall, rateLimitKey, tooManyRequests, type RateLimitRedis } from './ratelimit.ts';

/** Plain express, for the paths no contract route can express. */
export type { Router } from 'express';

type Out<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

export interface HandlerContext<D extends RouteDef> {
  params: Out<D['params']>;
  query: Out<D['query']>;
  body: Out<D['body']>;
  /** Files of a form route by field name (each field's limits already checked); empty otherwise. */
  files: Record<string, UploadedFile[]>;
  /** Set for every route whose access is not public; on a public route, when a valid token came. */
  principal: D['access'] extends 'public' ? Principal | undefined : Principal;
  req: Request;
  res: Response;
}

export type Handler<D extends RouteDef> = (ctx: HandlerContext<D>) => Promise<z.input<D['response']>> | z.input<D['response']>;

/** One group of named routes, as the registry holds them (`tradeRoutes`, `userRoutes`…). */
export type RouteGroup = Readonly<Record<string, RouteDef>>;
/** A service's route table: its groups by name, in the order their routes are matched. */
export type RouteTable = Readonly<Record<string, RouteGroup>>;
/** A handler for every route of a group, keyed by the route's name. */
export type GroupHandlers<G extends RouteGroup> = { [K in keyof G]: Handler<G[K]> };
/** A handler for every route of a table, keyed by group, then route name. */
export type RouteHandlers<T extends RouteTable> = { [G in keyof T]: GroupHandlers<T[G]> };
/** The handlers a service must give: one per route the registry declares for it. */
export type ServiceHandlers<S extends ServiceName> = RouteHandlers<(typeof registry)[S]['routes']>;
/** Some of a service's handlers: what one capability folder serves (`satisfies HandlerPart<'trade'>`). */
export type HandlerPart<S extends ServiceName> = { [G in keyof ServiceHandlers<S>]?: Partial<ServiceHandlers<S>[G]> };

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * The handlers of several capability folders as one table for createApp; its type is what the
 * parts give together, so a route none of them serves fails the typecheck. A route served twice
 * stops the start.
 */
export function joinHandlers<P extends readonly object[]>(...parts: P): Intersection<P[number]> {
  const joined: Record<string, Record<string, unknown>> = {};
  for (const part of parts) {
    for (const [group, named] of Object.entries(part as Record<string, Record<string, unknown>>)) {
      const into = (joined[group] ??= {});
      for (const [name, handler] of Object.entries(named)) {
        if (name in into) throw new Error(`handler ${group}.${name} is given twice`);
        into[name] = handler;
      }
    }
  }
  return joined as Intersection<P[number]>;
}

interface BaseAppOptions {
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Named checks for /readyz; each rejects when its dependency is unreachable. */
  readiness?: Record<string, () => Promise<unknown>>;
  /**
   * Plain express for paths no contract route can express (binary answers, socket.io's path, the
   * JWKS document); mounted after the contract routes.
   */
  plain?: (router: Router) => void;
  bodyLimit?: string;
  /** Counts the routes' declared rate limits (`kit.redis()`); a route declaring one needs it. */
  redis?: RateLimitRedis;
}

/** A service: the registry's routes for it, each with its handler. */
export interface ServiceAppOptions<S extends ServiceName> extends BaseAppOptions {
  service: S;
  handlers: ServiceHandlers<S>;
}

/** A part of a table (a test serving one group) or routes of the kit's own tests (service 'test'). */
export interface TableAppOptions<T extends RouteTable> extends BaseAppOptions {
  service: string;
  routes: T;
  handlers: RouteHandlers<T>;
}

export type AppOptions = ServiceAppOptions<ServiceName> | TableAppOptions<RouteTable>;

const REQUEST_ID = /^[\w.:-]{1,128}$/;
const tracer = trace.getTracer('@ruilplein/service-kit');

/** Request id from the caller (the gateway sets one) or a new one, echoed in the response. */
export function requestId(req: Request, res: Response, next: NextFunction) {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
  next();
}

/** One JSON line per request (id, method, url, status, time); `redactUrl` hides secrets in URLs. */
export function requestLogging(logger: Logger, redactUrl: (url: string) => string = (url) => url) {
  // Below info not a line would be written: spare every request pino-http's work (a benchmark of
  // the gateway spent a tenth of its time there); warnings and errors still get req.log.
  if (!logger.isLevelEnabled('info')) {
    return (req: Request, _res: Response, next: NextFunction) => {
      let child: Logger | undefined;
      Object.defineProperty(req, 'log', { configurable: true, get: () => (child ??= logger.child({ req: { id: req.headers['x-request-id'] } })) });
      next();
    };
  }
  return pinoHttp({
    logger,
    genReqId: (req) => req.headers['x-request-id'] as string,
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  });
}

const routes = new WeakMap<Request, string>();

/** Names the contract route a request matched (its path template), for its span and metrics. */
function markRoute(req: Request, route: string): void {
  routes.set(req, route);
}

/**
 * A server span per request, continuing the caller's trace from its `traceparent` header, and its
 * duration in `http.server.request.duration`. Both are named by the route the request matched
 * (markRoute) when one did: `POST /api/trade/offers/:id/accept`, not the member's own ids. The
 * response's listeners run in the span's context, so the request's own log line (pino-http's,
 * written when it finished) carries its trace and span id too.
 */
export function traceRequests(req: Request, res: Response, next: NextFunction) {
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer.startSpan(`${req.method} ${pathWithoutIds(req.path)}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } }, parent);
  const started = performance.now();
  const active = trace.setSpan(parent, span);
  context.bind(active, res);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const route = routes.get(req);
    const status = res.statusCode;
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    recordDuration('http.server.request.duration', (performance.now() - started) / 1000, {
      'http.request.method': req.method,
      ...(route && { 'http.route': route }),
      'http.response.status_code': status,
      ...(status >= 500 && { 'error.type': String(status) }),
    });
  };
  res.once('finish', end);
  // A websocket upgrade handed on never finishes as HTTP: its proxy says when it is done.
  res.once(UPGRADED, end);
  context.with(active, next);
}

/** Emitted on a response whose request was upgraded to a websocket and handed on (status 101): ends its server span. */
export const UPGRADED = 'ruilplein:upgraded';


/**
 * Spans of a plain node proxy (the local edge): a server span for each request (and websocket
 * upgrade) that `traced` picks by its path, the trace's root or a child of the caller's
 * `traceparent`, whose context goes on in the request's headers to the next hop. Its listeners go
 * in front of the proxy's own, so the proxy itself knows nothing of traces.
 */
export function traceProxy(server: Server, traced: (path: string) => boolean): void {
  const start = (req: IncomingMessage) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (!traced(path)) return undefined;
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(`${req.method} ${pathWithoutIds(path)}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '', 'url.path': path } }, parent);
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(parent, span), carrier);
    Object.assign(req.headers, carrier);
    return span;
  };
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const span = start(req);
    if (!span) return;
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  });
  // A websocket's span ends as its upgrade is passed on: the hub's connect span follows it.
  server.prependListener('upgrade', (req: IncomingMessage) => start(req)?.end());
}

function issuesToErrors(where: string, error: z.ZodError) {
  return error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));
}

async function checkAccess(def: RouteDef, req: Request, verify: TokenVerifier): Promise<Principal | undefined> {
  const token = bearerToken(req);
  // Optional login: a public route learns who calls when the token is good, and otherwise serves a
  // guest (an expired token must not break a public page, nor auth being briefly unreachable).
  if (def.access === 'public') return token ? verify(token).catch(() => undefined) : undefined;
  if (!token) throw unauthorized();
  const principal = await verify(token);
  // Behind the gateway too, for a service reached some other way (contracts auth/suspensions.ts).
  const suspension = principal.suspension && !def.whileSuspended ? activeSuspension(principal.suspension, nowMs()) : undefined;
  if (suspension) throw suspendedError(suspension);
  if (def.access === 'admin' && !isAdmin(principal)) throw forbidden();
  return principal;
}

/**
 * The app of a service. Routes are mounted in the order of their table (the registry's, unless a
 * test names a part), so which of two overlapping paths wins is declared once, in contracts (the
 * registry test refuses a route an earlier one would shadow). A route without a handler, or a
 * handler without a route, stops the service before it listens.
 */
export function createApp<S extends ServiceName>(options: ServiceAppOptions<S>): Express;
export function createApp<T extends RouteTable>(options: TableAppOptions<T>): Express;
export function createApp(options: AppOptions): Express {
  const { logger, verifyToken } = options;
  const app = express();
  app.disable('x-powered-by');
  // req.ip: the client as the declared proxies (edge or ingress controller, then gateway) saw it.
  trustProxies(app, trustedProxyHops(SERVICE_PROXY_HOPS));
  app.set('query parser', 'extended');
  app.use(helmet());
  app.use(requestId);
  app.use(traceRequests);
  app.use(requestLogging(logger));
  // Before any route matches: a path with `..` or encoded slashes is refused with 400.
  app.use(checkPath);
  // Not strict: a bare JSON string is a body too (the spec posts a bare email string). Plain text
  // arrives as a string; either way the route's body schema decides what it accepts.
  for (const parse of [express.json({ limit: options.bodyLimit ?? '100kb', strict: false }), express.text({ limit: options.bodyLimit ?? '100kb' })]) {
    app.use((req, res, next) => parse(req, res, (err?: unknown) => next(err === undefined ? undefined : bodyError(err))));
  }

  const routes: RouteDef[] = [];
  const router = express.Router();
  const mount = <D extends RouteDef>(def: D, handler: Handler<D>) => {
    // A route is served by the service the registry names (kit tests run as 'test': any route).
    if (def.service !== options.service && (SERVICE_NAMES as readonly string[]).includes(options.service)) throw new Error(`${options.service}: ${def.method.toUpperCase()} ${def.path} belongs to ${def.service}`);
    routes.push(def);
    const { redis } = options;
    const limit = def.rateLimit;
    if (limit && !redis) {
      throw new Error(`${options.service}: ${def.method.toUpperCase()} ${def.path} declares a rate limit, but createApp got no redis (kit.redis())`);
    }
    const limitName = limit?.name ?? `${def.method}:${def.path}`;
    const noStore = def.access !== 'public' || def.personal === true;
    router[def.method](def.path, async (req, res) => {
      markRoute(req, def.path);
      // Set first, so refusals (401, 403, 429) are not cached either.
      if (noStore) res.setHeader('cache-control', 'no-store');
      const principal = await checkAccess(def, req, verifyToken);
      if (principal) req.principal = principal;
      if (limit && redis) {
        // A guest on a public route counts by address: per user needs a user.
        const key =
          limit.per === 'user' && principal
            ? rateLimitKey(options.service, limitName, 'user', principal.userId)
            : rateLimitKey(options.service, limitName, 'client', clientAddress(req));
        const counted = await countCall(redis, key, limit);
        if (!counted.allowed) {
          res.setHeader('retry-after', counted.retryAfter);
          throw tooManyRequests();
        }
      }
      const errors: { path: string; message: string }[] = [];
      const parse = (where: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown) => {
        if (!schema) return undefined;
        const result = schema.safeParse(value ?? {});
        if (!result.success) errors.push(...issuesToErrors(where, result.error));
        return result.data;
      };
      const form = def.form ? await readForm(req, def.form) : undefined;
      const params = parse('params', def.params, req.params);
      const query = parse('query', def.query, req.query);
      const body = parse('body', def.body, form ? form.fields : req.body);
      // One wrong field: its (first) message says more than the generic one, and forms show it as is.
      const oneField = errors.every((e) => e.path === errors[0]?.path);
      if (errors.length) throw new HttpError(400, oneField ? errors[0]!.message : MESSAGES.invalidInput, errors);
      checkCaller(def, principal, query, body);
      const ctx = { params, query, body, files: form?.files ?? {}, principal, req, res } as HandlerContext<typeof def>;
      const result = await handler(ctx);
      if (!res.headersSent) res.status(def.status ?? 200).json(result);
    });
  };

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = Object.entries(options.readiness ?? {});
    const results = await Promise.all(
      checks.map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          return [name, 'ok'] as const;
        } catch {
          return [name, 'unreachable'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(results) });
  });

  const table: RouteTable = 'routes' in options ? options.routes : registry[options.service].routes;
  const handlers = options.handlers as Record<string, Record<string, Handler<RouteDef>>>;
  for (const problem of handlerProblems(options.service, table, handlers)) throw new Error(problem);
  for (const [group, defs] of Object.entries(table)) for (const [name, def] of Object.entries(defs)) mount(def, handlers[group]![name]!);
  options.plain?.(router);
  const openapi = openApiDocument(options.service, routes);
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(router);
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ message: MESSAGES.notFound });
  });
  app.use(errorHandler(logger));
  return app;
}

/** Routes without a handler and handlers without a route, as readable lines (empty: none). */
export function handlerProblems(service: string, table: RouteTable, handlers: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>): string[] {
  const problems: string[] = [];
  for (const [group, defs] of Object.entries(table)) {
    for (const [name, def] of Object.entries(defs)) {
      if (typeof handlers[group]?.[name] !== 'function') problems.push(`${service}: route ${group}.${name} (${def.method.toUpperCase()} ${def.path}) has no handler`);
    }
  }
  for (const [group, named] of Object.entries(handlers)) {
    for (const name of Object.keys(named ?? {})) if (!table[group]?.[name]) problems.push(`${service}: handler ${group}.${name} has no route`);
  }
  return problems;
}

/**
 * The declared caller fields name the acting member, so each one present must be the caller: a
 * guest may not name anyone (401), a member only themselves (403). Ids compare case-insensitively
 * (hex ids arrive in either case).
 */
function checkCaller(def: RouteDef, principal: Principal | undefined, query: unknown, body: unknown) {
  if (!def.caller) return;
  const present = (names: readonly string[] | undefined, from: unknown) =>
    names && from && typeof from === 'object' && !Array.isArray(from)
      ? names.map((n) => (from as Record<string, unknown>)[n]).filter((v) => v !== undefined && v !== null)
      : [];
  const claimed = [...present(def.caller.body, body), ...present(def.caller.query, query)];
  if (!claimed.length) return;
  if (!principal) throw unauthorized();
  const me = principal.userId.toLowerCase();
  if (claimed.some((v) => typeof v !== 'string' || v.toLowerCase() !== me)) throw forbidden(MESSAGES.notYourself);
}

/**
 * Errors of the body parsers are the client's: the status they carry, with a Dutch message. A body
 * whose Content-Encoding is unknown or lies (`gzip` over plain text: zlib fails mid-stream, and
 * body-parser passes that error on without a type) is a 400, not a 415 or a 500.
 */
function bodyError(err: unknown): HttpError {
  const { type, status } = err as { type?: unknown; status?: unknown };
  if (type === 'encoding.unsupported' || type === undefined) return badRequest(MESSAGES.badEncoding);
  if (type === 'entity.parse.failed') return badRequest(MESSAGES.invalidJson);
  if (type === 'entity.too.large') return new HttpError(413, MESSAGES.tooLarge);
  return new HttpError(typeof status === 'number' && status >= 400 && status < 500 ? status : 400, MESSAGES.invalidInput);
}

/** Member-facing errors keep their message; everything else is logged and answered generically. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (storeUnreachable(err)) {
      (req.log ?? logger).warn({ err }, 'request failed: the store is not reachable');
      if (res.headersSent) return res.end();
      return res.status(503).setHeader('retry-after', STORE_RETRY_SECONDS).json({ message: MESSAGES.unavailable });
    }
    const status = errorStatus(err);
    if (status >= 500) (req.log ?? logger).error({ err }, 'request failed');
    if (res.headersSent) return res.end();
    const body =
      err instanceof HttpError
        ? { message: err.message, ...(err.errors && { errors: err.errors }), ...err.extra }
        : { message: bodyParserMessage(err, status) };
    res.status(status).json(body);
  };
}

/** The driver's errors for a store it cannot reach now (down, restarting, failing over); not a query's own error. */
const STORE_UNREACHABLE = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoTopologyClosedError', 'MongoPoolClearedError']);
/** A store restart or failover takes seconds (chaos: the local store answers 0.5 s after its start). */
const STORE_RETRY_SECONDS = 2;

/** Whether a request failed because the store was out of reach: a 503 the member may retry, not a 500. */
function storeUnreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (STORE_UNREACHABLE.has(e.name)) return true;
  }
  return false;
}

function errorStatus(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  const status = (err as { status?: unknown })?.status;
  // Errors from express' own parsers carry a 4xx status and a `type`; the router marks a path
  // parameter that is not valid percent-encoding (`/api/user/public/%zz`) as a URIError with 400.
  const fromExpress = (err as { type?: unknown }).type || err instanceof URIError;
  return typeof status === 'number' && status >= 400 && status < 500 && fromExpress ? status : 500;
}

function bodyParserMessage(err: unknown, status: number): string {
  if (status === 500) return MESSAGES.internal;
  const type = (err as { type?: string }).type;
  if (type === 'entity.parse.failed') return MESSAGES.invalidJson;
  if (type === 'entity.too.large') return MESSAGES.tooLarge;
  return MESSAGES.invalidInput;
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
