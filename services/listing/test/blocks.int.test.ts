// Members blocking members, as the listing service follows it (auth's events: the members durable's
// projection for single listings and a member's listings, each search replica's own table for search
// and recommendations): both ways absent, 404 and empty, and back after the unblock.
import { ListingCardSchema, type BlockEvent } from '@ruilplein/contracts';
import { body, listen } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createListingService } from '../src/app.ts';
import type { SearchService } from '../src/search/sync.ts';
import { call, createListing, logger, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

const Cards = z.array(ListingCardSchema);
/** A quiet corner (Groningen): only this file's listings lie within 5 km. */
const CORNER = { city: 'Groningen', latitude: 53.2194, longitude: 6.5665 };

let h: ListingHarness;
let anna: TestMember;
let bram: TestMember;
let cor: TestMember;
let annasListing: string;
let bramsListing: string;

const ids = async (member: TestMember, path: string) => {
  const res = await call(h.url, path, { token: member.token });
  expect(res.status).toBe(200);
  return Cards.parse(await body(res)).map((c) => c.id);
};
const searched = (member: TestMember) => ids(member, '/api/listing?distanceKm=5&take=50');
const recommended = (member: TestMember) => ids(member, `/api/listing/recommendations?userId=${member.id}&radiusKm=5`);
const ofOwner = async (member: TestMember, owner: TestMember) => ((await body(await call(h.url, `/api/listing/user/${owner.id}`, { token: member.token }))) as Array<{ id: string }>).map((l) => l.id);
const detail = async (member: TestMember, id: string) => (await call(h.url, `/api/listing/${id}`, { token: member.token })).status;
const inventory = async (member: TestMember, owner: TestMember) => ((await body(await call(h.url, `/api/listing/inventory/${owner.id}`, { token: member.token }))) as Array<{ listingID: string }>).map((i) => i.listingID);

/** Everything `viewer` can find of `owner`'s listing `id`, each way. */
async function seen(viewer: TestMember, owner: TestMember, id: string) {
  return {
    search: (await searched(viewer)).includes(id),
    recommendations: (await recommended(viewer)).includes(id),
    byUser: (await ofOwner(viewer, owner)).includes(id),
    inventory: (await inventory(viewer, owner)).includes(id),
    detail: await detail(viewer, id),
  };
}
const VISIBLE = { search: true, recommendations: true, byUser: true, inventory: true, detail: 200 };
const HIDDEN = { search: false, recommendations: false, byUser: false, inventory: false, detail: 404 };

beforeAll(async () => {
  h = await startListing();
  await waitFor(async () => (await fetch(`${h.url}/readyz`)).status === 200, 'search loaded');
  // Premium: their new listings are visible to each other at once (no six-hour head start).
  [anna, bram, cor] = await Promise.all([h.member({ ...CORNER, roles: ['Premium'] }), h.member({ ...CORNER, roles: ['Premium'] }), h.member({ ...CORNER, roles: ['Premium'] })]);
  annasListing = (await createListing(h.url, anna.token)).id;
  bramsListing = (await createListing(h.url, bram.token)).id;
  await waitFor(async () => (await searched(cor)).includes(annasListing) && (await searched(cor)).includes(bramsListing), 'both listings indexed');
});
afterAll(async () => {
  await h?.close();
});

describe('blocking in listings', () => {
  it('hides each from the other (search, recommendations, by user, inventory, detail 404) and shows them again after the unblock', async () => {
    expect(await seen(bram, anna, annasListing)).toEqual(VISIBLE);
    expect(await seen(anna, bram, bramsListing)).toEqual(VISIBLE);

    const pair: BlockEvent = { blockerId: anna.id, blockedId: bram.id, version: 1, at: '2026-03-01T10:00:00.000Z' };
    await h.publish('auth.block.added', pair);
    await waitFor(async () => (await detail(bram, annasListing)) === 404 && !(await searched(bram)).includes(annasListing), 'block applied');
    expect(await seen(bram, anna, annasListing)).toEqual(HIDDEN);
    expect(await seen(anna, bram, bramsListing)).toEqual(HIDDEN);
    // Nor can either put the other's listing on their wishlist.
    expect((await call(h.url, `/api/wishlist/add/${annasListing}`, { method: 'POST', token: bram.token })).status).toBe(404);
    // Anyone else sees both as before.
    expect(await seen(cor, anna, annasListing)).toEqual(VISIBLE);
    expect(await seen(cor, bram, bramsListing)).toEqual(VISIBLE);

    await h.publish('auth.block.removed', { ...pair, version: 2 });
    await waitFor(async () => (await detail(bram, annasListing)) === 200 && (await searched(bram)).includes(annasListing), 'unblock applied');
    expect(await seen(bram, anna, annasListing)).toEqual(VISIBLE);
    expect(await seen(anna, bram, bramsListing)).toEqual(VISIBLE);
  });

  it('a replica started later loads the relation from the store and follows on from there', async () => {
    const pair: BlockEvent = { blockerId: bram.id, blockedId: cor.id, version: 1, at: '2026-03-01T11:00:00.000Z' };
    await h.publish('auth.block.added', pair);
    await waitFor(async () => (await detail(cor, bramsListing)) === 404, 'block projected');
    // A second replica: same database and NATS, its own index and table, loaded now.
    const service = await createListingService({ db: h.db, bus: h.bus, redis: h.redis, logger, verifyToken: h.issuer.verifyToken });
    const server = await listen(service.app);
    try {
      await service.workers!.find((w): w is SearchService => 'engine' in w)!.ready;
      const secondSearch = async (member: TestMember) => Cards.parse(await body(await call(server.url, '/api/listing?distanceKm=5&take=50', { token: member.token }))).map((c) => c.id);
      expect(await secondSearch(cor)).not.toContain(bramsListing);
      expect(await secondSearch(cor)).toContain(annasListing);
      await h.publish('auth.block.removed', { ...pair, version: 2 });
      await waitFor(async () => (await secondSearch(cor)).includes(bramsListing), 'unblock followed');
    } finally {
      await server.close();
      for (const worker of service.workers ?? []) await worker.stop();
    }
  });
});
