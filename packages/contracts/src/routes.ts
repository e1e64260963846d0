import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One HTTP operation: the services validate with it and generate their OpenAPI document from it. */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Express path syntax (`/api/listing/:id`). */
  path: string;
  summary: string;
  /** public: no token needed; user: any signed-in member; admin: Beheerder or Moderator. */
  access: 'public' | 'user' | 'admin';
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Status of a successful answer; 200 unless said otherwise. */
  status?: number;
}

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
