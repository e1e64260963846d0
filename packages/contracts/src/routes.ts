import type { z } from 'zod';

/**
 * A request path with its ids as `:id` (numbers, hex and uuids, and tokens of 10 or more characters
 * with a digit, like a payment's `tr_…`), so span names and reports name the kind of request and
 * not each member's: `/api/tradeoffer/confirm/:id`.
 */
export const pathWithoutIds = (path: string) => path.replace(/\/(?:\d+|[0-9a-f-]{8,}|(?=[\w-]*\d)[\w-]{10,})(?=\/|$)/gi, '/:id');

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The deployables behind the gateway that own routes, events and queries (docs/architecture.md). */
export const SERVICE_NAMES = ['auth', 'listing', 'trade', 'chat', 'moderation', 'payment', 'notification', 'chain'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * A Redis rate limit declared on a route and enforced by the service kit: `points` calls per
 * `windowSeconds`, counted per signed-in member (`user`) or per client address (`client`).
 * Over it: 429 with the Dutch message and `Retry-After`.
 */
export interface RateLimitDef {
  per: 'user' | 'client';
  points: number;
  windowSeconds: number;
  /** Limits that share a name share one counter (e.g. all chat sends); the route's path otherwise. */
  name?: string;
}

/**
 * Fields of the request that name the acting member. The kit answers 403 when one is present and
 * differs from the caller's id (from the token); the acting member never comes from the request.
 */
export interface CallerFieldsDef {
  body?: readonly string[];
  query?: readonly string[];
}

/** One HTTP operation: the services validate with it and generate their OpenAPI document from it. */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** The service that serves the route; the gateway routes it there (a test checks the prefixes). */
  service: ServiceName;
  method: HttpMethod;
  /** Express path syntax (`/api/listing/:id`). */
  path: string;
  summary: string;
  /**
   * public: no token needed (a valid token, when sent, still makes the caller known to the
   * handler); user: any signed-in member; admin: Beheerder or Moderator.
   */
  access: 'public' | 'user' | 'admin';
  rateLimit?: RateLimitDef;
  caller?: CallerFieldsDef;
  /** Answers carry personal data: `Cache-Control: no-store` (the default for non-public routes). */
  personal?: boolean;
  /**
   * A suspended member may still call it (their status, the session check, sign-out); every other
   * route that needs a login answers them 403 with the suspension (auth/suspensions.ts).
   */
  whileSuspended?: true;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /**
   * A form body (multipart/form-data or urlencoded) instead of JSON: `body` validates its text
   * fields (a repeated field arrives as an array), `files` declares each file field.
   */
  form?: { files: Record<string, FileFieldDef>; total?: FormTotalDef };
  /** Status of a successful answer; 200 unless said otherwise. */
  status?: number;
  /** The answer is an HTML page (the local checkout), not JSON. */
  html?: true;
  /**
   * The route takes an optional `Idempotency-Key` header (listing rules: IDEMPOTENCY_KEY_*): a
   * repeat by the same member with the same key answers the first result and changes nothing; the
   * same key with another body is a 422. The handler keeps the results.
   */
  idempotent?: true;
}

/** One file field of a form route; a field with more files or a larger file is a 400. */
export interface FileFieldDef {
  maxBytes: number;
  /** Files allowed in this field; 1 unless said otherwise. */
  maxCount?: number;
  /** Dutch message for a file over `maxBytes`. */
  tooLarge: string;
}

/**
 * Limits over all file fields of a form together (fields that are two names for one set of files):
 * the body is never read beyond `maxBytes` (plus room for the text fields), instead of the sum of
 * every field's own limit.
 */
export interface FormTotalDef {
  maxBytes: number;
  maxCount: number;
  /** Dutch messages for files over `maxBytes` together, and for more than `maxCount`. */
  tooLarge: string;
  tooMany: string;
}

/**
 * The zod-free half of a route, declared once per route in `<service>/refs.ts`: what the browser
 * needs (where it lives, who may call it) and what the kit enforces before validation. The route in
 * `<service>/routes.ts` spreads it and adds summary and schemas: `defineRoute({ ...refs.x, … })`.
 */
export interface RouteRefDef {
  service: ServiceName;
  method: HttpMethod;
  path: string;
  access: RouteDef['access'];
  rateLimit?: RateLimitDef;
  caller?: CallerFieldsDef;
  personal?: boolean;
  whileSuspended?: true;
  /** A form (multipart) body; the route declares its file fields. */
  form?: true;
}

/** Keeps the literal types of a service's refs (`service: 'auth'`, `method: 'post'`). */
export const defineRefs = <const T extends Record<string, RouteRefDef>>(refs: T): T => refs;

export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(def: RouteDef<P, Q, B, R>): RouteDef<P, Q, B, R> {
  return def;
}

/**
 * A NATS request/reply query, answered by the owning service on `rpc.<service>.<entity>.<verb>`.
 * The `rpc.` prefix keeps queries out of the services' event streams (`<service>.>`).
 */
export interface QueryDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  subject: string;
  request: Req;
  response: Res;
}

export const defineQuery = <Req extends z.ZodType, Res extends z.ZodType>(q: QueryDef<Req, Res>) => q;

/** Declares `service`'s queries, each on `rpc.<service>.<entity>.<verb>` (the registry test checks the subjects). */
export const defineQueries = <T extends Record<string, QueryDef>>(_service: ServiceName, queries: T): T => queries;
