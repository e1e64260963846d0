import { randomUUID } from 'node:crypto';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import type { RouteDef } from '@ruilplein/contracts';
import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { z } from 'zod';
import { bearerToken, isAdmin, type Principal, type TokenVerifier } from './auth.ts';
import { forbidden, HttpError, MESSAGES, unauthorized } from './errors.ts';
import { readForm, type UploadedFile } from './form.ts';
import type { Logger } from './logger.ts';
import { openApiDocument } from './openapi.ts';

type Out<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;

export interface HandlerContext<D extends RouteDef> {
  params: Out<D['params']>;
  query: Out<D['query']>;
  body: Out<D['body']>;
  /** Files of a form route by field name (each field's limits already checked); empty otherwise. */
  files: Record<string, UploadedFile[]>;
  /** Set for every route whose access is not public. */
  principal: D['access'] extends 'public' ? Principal | undefined : Principal;
  req: Request;
  res: Response;
}

export type Handler<D extends RouteDef> = (ctx: HandlerContext<D>) => Promise<z.input<D['response']>> | z.input<D['response']>;

export interface Api {
  /** Registers a contract route: checks access, validates input (JSON or form), answers JSON. */
  handle<D extends RouteDef>(def: D, handler: Handler<D>): void;
  /** For what a contract route cannot express (binary or streamed answers): plain express. */
  router: Router;
}

export interface AppOptions {
  service: string;
  logger: Logger;
  verifyToken: TokenVerifier;
  /** Named checks for /readyz; each rejects when its dependency is unreachable. */
  readiness?: Record<string, () => Promise<unknown>>;
  routes: (api: Api) => void;
  bodyLimit?: string;
}

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

/** A server span per request, continuing the caller's trace from its `traceparent` header. */
export function traceRequests(req: Request, res: Response, next: NextFunction) {
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer.startSpan(`${req.method} ${req.path}`, { kind: SpanKind.SERVER }, parent);
  res.on('finish', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    span.end();
  });
  context.with(trace.setSpan(parent, span), next);
}

function issuesToErrors(where: string, error: z.ZodError) {
  return error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));
}

async function checkAccess(def: RouteDef, req: Request, verify: TokenVerifier): Promise<Principal | undefined> {
  if (def.access === 'public') return undefined;
  const token = bearerToken(req);
  if (!token) throw unauthorized();
  const principal = await verify(token);
  if (def.access === 'admin' && !isAdmin(principal)) throw forbidden();
  return principal;
}

export function createApp(options: AppOptions): Express {
  const { logger, verifyToken } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, uniquelocal');
  app.set('query parser', 'extended');
  app.use(helmet());
  app.use(requestId);
  app.use(traceRequests);
  app.use(requestLogging(logger));
  // Not strict: a bare JSON string is a body too (the spec posts a bare email string). Plain text
  // arrives as a string; either way the route's body schema decides what it accepts.
  app.use(express.json({ limit: options.bodyLimit ?? '100kb', strict: false }));
  app.use(express.text({ limit: options.bodyLimit ?? '100kb' }));

  const routes: RouteDef[] = [];
  const router = express.Router();
  const api: Api = {
    router,
    handle(def, handler) {
      routes.push(def);
      router[def.method](def.path, async (req, res) => {
        const principal = await checkAccess(def, req, verifyToken);
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
        const ctx = { params, query, body, files: form?.files ?? {}, principal, req, res } as HandlerContext<typeof def>;
        const result = await handler(ctx);
        if (!res.headersSent) res.status(def.status ?? 200).json(result);
      });
    },
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

  options.routes(api);
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

/** Member-facing errors keep their message; everything else is logged and answered generically. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = errorStatus(err);
    if (status >= 500) (req.log ?? logger).error({ err }, 'request failed');
    if (res.headersSent) return res.end();
    const body =
      err instanceof HttpError
        ? { message: err.message, ...(err.errors && { errors: err.errors }) }
        : { message: bodyParserMessage(err, status) };
    res.status(status).json(body);
  };
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
