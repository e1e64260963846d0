// The query helpers over the typed client, with a QueryClient and a fake server (fetch stubbed).
import { InfiniteQueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteRef } from '@ruilplein/contracts/browser';
import { ApiError } from '../src/api.ts';
import { apiPages, apiQuery, createQueryClient, worthRetrying } from '../src/query.ts';

const listings: RouteRef<{ owner: string }, { take: number; page?: number }, unknown, { items: number[] }> = {
  service: 'listing',
  method: 'get',
  path: '/api/listing/user/:owner',
  access: 'public',
};

let asked: string[];
let client: QueryClient;

beforeEach(() => {
  asked = [];
  client = createQueryClient();
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => {}, removeItem: () => {} });
  // A list of 7 items in pages of `take`, each answer a little later than asked.
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    const query = new URL(url, 'http://x').searchParams;
    const take = Number(query.get('take'));
    const page = Number(query.get('page') ?? 1);
    const items = Array.from({ length: 7 }, (_, i) => i + 1).slice((page - 1) * take, page * take);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return new Response(JSON.stringify({ items }), { headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => {
  client.clear();
  vi.unstubAllGlobals();
});

describe('apiQuery', () => {
  it('asks the same call once, however many places want it at once, and keys by route and input', async () => {
    const query = apiQuery(listings, { params: { owner: 'a1' }, query: { take: 3 } });
    expect(query.queryKey).toEqual(['get', '/api/listing/user/:owner', { owner: 'a1' }, { take: 3 }]);
    const answers = await Promise.all([client.fetchQuery(query), client.fetchQuery(query), client.fetchQuery(query)]);
    expect(answers.map((a) => a.items)).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);
    expect(asked).toEqual(['/api/listing/user/a1?take=3']);
    // Fresh for a while: asked again only when invalidated.
    await client.fetchQuery(query);
    expect(asked).toHaveLength(1);
  });
});

describe('apiPages', () => {
  it("pages through with 'Laad meer' until a page is not full", async () => {
    const take = 3;
    const observer = new InfiniteQueryObserver(client, apiPages(listings, { params: { owner: 'a1' }, query: { take } }, { hasMore: (last) => last.items.length === take }));
    await observer.refetch();
    const first = observer.getCurrentResult();
    expect(first.data?.pages.map((p) => p.items)).toEqual([[1, 2, 3]]);
    expect(first.hasNextPage).toBe(true);
    const second = await observer.fetchNextPage();
    const third = await observer.fetchNextPage();
    expect(third.data?.pages.flatMap((p) => p.items)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(second.hasNextPage).toBe(true);
    expect(third.hasNextPage).toBe(false);
    expect(asked).toEqual(['/api/listing/user/a1?take=3&page=1', '/api/listing/user/a1?take=3&page=2', '/api/listing/user/a1?take=3&page=3']);
  });
});

describe('worthRetrying', () => {
  it('retries what the server did not refuse, twice at most', () => {
    expect(worthRetrying(0, new ApiError('Geen verbinding', 0))).toBe(true);
    expect(worthRetrying(1, new ApiError('Storing', 503))).toBe(true);
    expect(worthRetrying(2, new ApiError('Storing', 503))).toBe(false);
    expect(worthRetrying(0, new TypeError('Failed to fetch'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 429]) expect(worthRetrying(0, new ApiError('Nee', status))).toBe(false);
  });
});
