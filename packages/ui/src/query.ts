// Server state in every frontend goes through TanStack Query with the typed API client: caching,
// de-duplication of the same call, retries, loading and error states and paging. The shell makes
// one QueryClient and provides it (@tanstack/react-query is a shared singleton, so a remote's hooks
// find the shell's client); pages describe what they need with `apiQuery`/`useApi`/`useApiPages`.
import {
  infiniteQueryOptions,
  QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type UseInfiniteQueryResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { RouteRef } from '@ruilplein/contracts/browser';
import { ApiError } from './api.ts';
import { request, type RequestOptions } from './client.ts';

/** A call worth repeating: the server was not reached, was busy, or failed itself; never a refusal of the input. */
export function worthRetrying(failures: number, err: unknown): boolean {
  if (failures >= 2) return false;
  if (!(err instanceof ApiError)) return true;
  return err.status === 0 || err.status === 408 || err.status >= 500;
}

/** The shell's one client. Data counts as fresh for 30 s; a failed read is tried twice more with growing pauses. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: worthRetrying, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

type Input<P, Q> = { params?: P; query?: Q };

/** The cache key of a call: the route and its input, so the same call from two places is one request. */
export const apiKey = (ref: Pick<RouteRef, 'method' | 'path'>, input: Input<unknown, unknown> = {}) =>
  [ref.method, ref.path, input.params ?? null, input.query ?? null] as const;

/**
 * The query of a GET route with its params and query, for `useQuery`, `useSuspenseQuery` or
 * `queryClient.fetchQuery`; the request is aborted when nobody waits for it any more.
 */
export function apiQuery<P, Q, R>(ref: RouteRef<P, Q, undefined, R> | RouteRef<P, Q, unknown, R>, input: Input<P, Q> = {}) {
  return queryOptions({
    queryKey: apiKey(ref, input),
    queryFn: ({ signal }) => request(ref as RouteRef<unknown, unknown, unknown, R>, { ...(input as RequestOptions), signal } as never),
  });
}

/** `useQuery(apiQuery(ref, input))`, with the options TanStack Query takes beside it (`enabled`, `select`…). */
export function useApi<P, Q, R>(
  ref: RouteRef<P, Q, undefined, R> | RouteRef<P, Q, unknown, R>,
  input: Input<P, Q> = {},
  options: { enabled?: boolean; staleTime?: number; refetchOnWindowFocus?: boolean } = {},
): UseQueryResult<R, Error> {
  return useQuery({ ...apiQuery(ref, input), ...options });
}

/** A paged list route: which page to ask, and whether another one follows. */
export interface Paging<Q, R> {
  /** The query field that carries the page number (1-based), `page` unless told. */
  pageField?: keyof Q & string;
  /** Another page exists after `last` (page number `page`): usually "it was full". */
  hasMore: (last: R, page: number) => boolean;
}

/**
 * "Laad meer" paging through an infinite query: pages 1, 2, … of `ref` with the same query, kept
 * together in the cache. `data.pages` holds every loaded page; `fetchNextPage()` asks the next.
 */
export function apiPages<P, Q, R>(ref: RouteRef<P, Q, undefined, R> | RouteRef<P, Q, unknown, R>, input: Input<P, Q>, paging: Paging<Q, R>) {
  const field = paging.pageField ?? 'page';
  return infiniteQueryOptions<R, Error, InfiniteData<R, number>, readonly unknown[], number>({
    queryKey: [...apiKey(ref, input), 'pages'],
    initialPageParam: 1,
    queryFn: ({ signal, pageParam }) =>
      request(ref as RouteRef<unknown, unknown, unknown, R>, { params: input.params, query: { ...input.query, [field]: pageParam }, signal } as never),
    getNextPageParam: (last: R, all: R[]) => (paging.hasMore(last, all.length) ? all.length + 1 : undefined),
  });
}

export function useApiPages<P, Q, R>(
  ref: RouteRef<P, Q, undefined, R> | RouteRef<P, Q, unknown, R>,
  input: Input<P, Q>,
  paging: Paging<Q, R>,
  options: { enabled?: boolean } = {},
): UseInfiniteQueryResult<InfiniteData<R, number>, Error> {
  return useInfiniteQuery({ ...apiPages(ref, input, paging), ...options });
}

/** The Dutch message of a failed call, fit to show as is. */
export const failureMessage = (err: unknown, fallback = 'Er ging iets mis. Probeer het later opnieuw.') => (err instanceof ApiError ? err.message : fallback);
