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
  /**
   * A form body (multipart/form-data or urlencoded) instead of JSON: `body` validates its text
   * fields (a repeated field arrives as an array), `files` declares each file field.
   */
  form?: { files: Record<string, FileFieldDef> };
  /** Status of a successful answer; 200 unless said otherwise. */
  status?: number;
}

/** One file field of a form route; a field with more files or a larger file is a 400. */
export interface FileFieldDef {
  maxBytes: number;
  /** Files allowed in this field; 1 unless said otherwise. */
  maxCount?: number;
  /** Dutch message for a file over `maxBytes`. */
  tooLarge: string;
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
