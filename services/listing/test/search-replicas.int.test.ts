// Two replicas of the listing service on the same store and NATS: each keeps its own search index,
// loaded at start and fed by its own ephemeral consumers, so a listing placed through one is found
// through the other within a second.
import { ListingCardSchema } from '@ruilplein/contracts';
import { body, listen } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createListingService } from '../src/app.ts';
import type { SearchService } from '../src/search/sync.ts';
import { call, createListing, itemFields, logger, PLACES, startListing, type ListingHarness, type TestMember } from './listings.helpers.ts';

let a: ListingHarness;
let b: { url: string; close(): Promise<void>; search: SearchService };
let premium: TestMember;

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const searchIds = async (url: string, token: string, query: string) => {
  const res = await call(url, `/api/listing${query}`, { token });
  expect(res.status).toBe(200);
  return z.array(ListingCardSchema).parse(await body(res)).map((c) => c.id);
};

beforeAll(async () => {
  a = await startListing();
  premium = await a.member({ ...PLACES.utrecht, roles: ['Premium'] });
  await until(async () => (await fetch(`${a.url}/readyz`)).status === 200);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('search on two replicas', () => {
  it('loads what the store holds when a replica starts', async () => {
    const before = await createListing(a.url, premium.token, itemFields({ title: 'Van voor de start', CategoryIDs: ['boeken'] }));
    // The second replica: same database, same NATS, its own index.
    const service = await createListingService({ db: a.db, bus: a.bus, redis: a.redis, logger, verifyToken: a.issuer.verifyToken });
    const server = await listen(service.app);
    const search = service.workers!.find((w): w is SearchService => 'engine' in w)!;
    b = {
      url: server.url,
      search,
      async close() {
        await server.close();
        for (const worker of service.workers ?? []) await worker.stop();
      },
    };
    await search.ready;
    expect(await searchIds(b.url, premium.token, '?categoryIds=boeken')).toContain(before.id);
  });

  it('finds on replica B within a second what was placed through replica A', async () => {
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const listing = await createListing(a.url, premium.token, itemFields({ title: `Vers ${i}`, CategoryIDs: ['tuin'] }));
      const placed = Date.now();
      await until(async () => (await searchIds(b.url, premium.token, '?categoryIds=tuin&take=50')).includes(listing.id), 5000);
      delays.push(Date.now() - placed);
    }
    expect(Math.max(...delays), `delays ${delays.join(', ')} ms`).toBeLessThan(1000);
  });

  it('applies a replica’s own announced write at once, before any event arrives', async () => {
    const id = '0123456789abcdef01234567';
    b.search.announce({
      id: crypto.randomUUID(),
      type: 'listing.listing.created',
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
      payload: {
        id,
        version: 1,
        ownerId: premium.id,
        active: true,
        title: 'Eigen schrijven',
        excerpt: 'Direct zichtbaar op deze replica',
        listingType: 'item',
        acceptsItems: false,
        isPremium: false,
        initialValue: null,
        categoryIds: ['hobby'],
        imageUrl: '/uploads/listings/x.webp',
        thumbnailUrl: '/uploads/listings/x-t.webp',
        placeholder: '',
        createdAt: new Date().toISOString(),
        latitude: PLACES.utrecht.latitude,
        longitude: PLACES.utrecht.longitude,
      },
    });
    // Synchronously in B's index; and published, so A follows.
    expect(b.search.engine.index.has(id)).toBe(true);
    await until(async () => (await searchIds(a.url, premium.token, '?categoryIds=hobby')).includes(id), 5000);
  });

  it('starts a replica from a snapshot and the events after it', async () => {
    const searchOf = (parts: { workers?: unknown[] }) => parts.workers!.find((w): w is SearchService => typeof w === 'object' && w !== null && 'engine' in w)!;
    const before = await createListing(a.url, premium.token, itemFields({ title: 'Voor de momentopname', CategoryIDs: ['muziek'] }));
    await until(async () => (await searchIds(a.url, premium.token, '?categoryIds=muziek')).includes(before.id), 5000);
    const written = await searchOf(a.service).snapshot();
    expect(written?.bytes).toBeGreaterThan(0);
    const after = await createListing(a.url, premium.token, itemFields({ title: 'Na de momentopname', CategoryIDs: ['muziek'] }));

    const service = await createListingService({ db: a.db, bus: a.bus, redis: a.redis, logger, verifyToken: a.issuer.verifyToken });
    const server = await listen(service.app);
    try {
      const c = searchOf(service);
      await c.ready;
      expect(c.stats().source).toBe('snapshot');
      expect(c.stats().listings).toBe(searchOf(a.service).stats().listings);
      await until(async () => (await searchIds(server.url, premium.token, '?categoryIds=muziek')).includes(after.id), 5000);
      expect(await searchIds(server.url, premium.token, '?categoryIds=muziek')).toEqual(await searchIds(a.url, premium.token, '?categoryIds=muziek'));
      // The keyword index came with the snapshot (issue 23): words of listings from before and after it.
      expect(await searchIds(server.url, premium.token, '?q=momentopnames')).toEqual(expect.arrayContaining([before.id, after.id]));
      expect(await searchIds(server.url, premium.token, '?q=momentopnames')).toEqual(await searchIds(a.url, premium.token, '?q=momentopnames'));
    } finally {
      await server.close();
      for (const worker of service.workers ?? []) await worker.stop();
    }
  });
});
