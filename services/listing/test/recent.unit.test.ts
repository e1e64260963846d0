// GET /api/listing/recent keeps its answer a moment per replica (the route is public: a burst of
// guests costs one scan of the index), asks the index as a guest, and waits for a loaded index.
import type { ListingCard } from '@ruilplein/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CategoryCache } from '../src/categories/cache.ts';
import { recentHandlers } from '../src/recent/routes.ts';
import type { SearchService } from '../src/search/sync.ts';

const card = (id: string): ListingCard => ({
  id,
  title: `Listing ${id}`,
  description: 'Geheim van de eigenaar',
  imageUrl: `/uploads/listings/${id}.webp`,
  thumbnailUrl: `/uploads/listings/${id}-t.webp`,
  placeholder: 'data:image/webp;base64,UklGRg==',
  listingType: 'item',
  acceptsItems: false,
  isPremium: false,
  initialValue: 12.5,
  createdAt: '2026-01-01T00:00:00.000Z',
  isActive: true,
  listingCategories: [],
  distanceInKm: 3.2,
  user: { id: 'eigenaar', firstName: 'Sanne', lastName: 'de Vries', city: 'Zeist' },
});

function fakes(ready = true) {
  const asked: { searcher: unknown; filters: unknown }[] = [];
  let next = ['a'];
  const engine = {
    searcher: (id: string) => ({ id, premium: false }),
    search: (searcher: unknown, filters: unknown) => {
      asked.push({ searcher, filters });
      return { ids: next };
    },
    cards: (page: { ids: string[] }) => page.ids.map(card),
  };
  const search = { isReady: () => ready, engine } as unknown as SearchService;
  const categories = { current: () => ({ list: [], json: '[]', etag: '"0"' }) } as unknown as CategoryCache;
  return { search, categories, asked, setNext: (ids: string[]) => (next = ids) };
}

function call(handlers: ReturnType<typeof recentHandlers>) {
  const headers: Record<string, string> = {};
  const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
  const answer = (handlers.listing.recent as (args: unknown) => unknown)({ res });
  return { answer, headers };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the recent listings route', () => {
  it('asks as a guest (no member, not Premium) for the newest eight, and answers only what is public', () => {
    const f = fakes();
    const { answer, headers } = call(recentHandlers(f.search, f.categories, 10_000));
    expect(f.asked).toEqual([{ searcher: { id: '', premium: false }, filters: { page: 1, take: 8, premium: false, categoryIds: [] } }]);
    expect(answer).toEqual([
      { id: 'a', title: 'Listing a', thumbnailUrl: '/uploads/listings/a-t.webp', placeholder: 'data:image/webp;base64,UklGRg==', listingType: 'item', listingCategories: [], city: 'Zeist', createdAt: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(headers['cache-control']).toBe('public, max-age=10');
  });

  it('keeps the answer for its time, then asks again', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const f = fakes();
    const handlers = recentHandlers(f.search, f.categories, 10_000);
    expect(call(handlers).answer).toEqual([expect.objectContaining({ id: 'a' })]);
    f.setNext(['b']);
    vi.advanceTimersByTime(9_000);
    expect(call(handlers).answer).toEqual([expect.objectContaining({ id: 'a' })]);
    expect(f.asked).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(call(handlers).answer).toEqual([expect.objectContaining({ id: 'b' })]);
    expect(f.asked).toHaveLength(2);
  });

  it('answers 503 while the index is loading', () => {
    const f = fakes(false);
    expect(() => call(recentHandlers(f.search, f.categories))).toThrow(expect.objectContaining({ status: 503 }));
  });
});
