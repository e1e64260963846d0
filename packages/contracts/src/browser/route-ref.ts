// The browser's view of a contract route: where it lives and what goes in and out, as types only.
// zod-free on purpose (docs/architecture.md "Contracts"): a frontend importing a route or a rule
// must not pull zod into its bundle.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A route as the typed API client in `@ruilplein/ui` takes it. `P`, `Q`, `B` and `R` exist only
 * in the type system (the input of params, query and body, the output of the answer); at run time
 * a ref is a plain object.
 */
export interface RouteRef<P = unknown, Q = unknown, B = unknown, R = unknown> {
  service: string;
  method: HttpMethod;
  /** Express path syntax (`/api/user/public/:id`); the client fills `:name` from `params`. */
  path: string;
  access: 'public' | 'user' | 'admin';
  /** A form (multipart) body instead of JSON. */
  form?: boolean;
  /** Phantom: never set, carries the types. */
  readonly __types?: { params: P; query: Q; body: B; response: R };
}

export type ParamsOf<T> = T extends RouteRef<infer P, unknown, unknown, unknown> ? P : never;
export type QueryOf<T> = T extends RouteRef<unknown, infer Q, unknown, unknown> ? Q : never;
export type BodyOf<T> = T extends RouteRef<unknown, unknown, infer B, unknown> ? B : never;
export type ResponseOf<T> = T extends RouteRef<unknown, unknown, unknown, infer R> ? R : never;
