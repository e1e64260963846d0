// The six-hour head start (Premium members see a new listing first) ends by the platform clock
// (service-kit clock.ts), not the machine's: moving the clock seven hours shows a fresh listing to a
// standard member, by its id, in an inventory and for the wishlist, without touching the store.
import { body, testClock, type TestClock } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createListing, earlier, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

const HOUR = 3600_000;
let h: ListingHarness;
let clock: TestClock;
let owner: TestMember;
let standard: TestMember;
let premium: TestMember;

beforeAll(async () => {
  clock = await testClock();
  h = await startListing();
  [owner, standard, premium] = await Promise.all([h.member(), h.member(), h.member({ roles: ['Gebruiker', 'Premium'] })]);
});
afterAll(async () => {
  await h?.close();
  await clock?.close();
});

const status = async (path: string, token: string) => (await call(h.url, path, { token })).status;

describe('the head start', () => {
  it('ends when the platform clock has moved past six hours', async () => {
    const listing = await createListing(h.url, owner.token);
    // Fresh: the owner and Premium members only.
    expect(await status(`/api/listing/${listing.id}`, standard.token)).toBe(404);
    expect(await status(`/api/listing/${listing.id}`, premium.token)).toBe(200);
    expect(await status(`/api/listing/${listing.id}`, owner.token)).toBe(200);
    const inventory = async () => (await body(await call(h.url, `/api/listing/inventory/${owner.id}`, { token: standard.token }))) as Array<{ listingID: string }>;
    expect((await inventory()).map((i) => i.listingID)).not.toContain(listing.id);
    const refused = await call(h.url, `/api/wishlist/add/${listing.id}`, { method: 'POST', token: standard.token });
    expect(refused.status).toBe(404);

    await clock.move(7 * HOUR);
    await waitFor(async () => (await status(`/api/listing/${listing.id}`, standard.token)) === 200, 'the standard member sees the listing');
    expect((await inventory()).map((i) => i.listingID)).toContain(listing.id);
    const added = await call(h.url, `/api/wishlist/add/${listing.id}`, { method: 'POST', token: standard.token });
    expect(added.status, JSON.stringify(await body(added.clone()))).toBeLessThan(300);

    // Back: fresh again (it was placed at real time), so the rule reads the clock each time.
    await clock.move(0);
    await waitFor(async () => (await status(`/api/listing/${listing.id}`, standard.token)) === 404, 'fresh again on the real clock');
  });

  it('stamps a new listing with the platform clock: placed seven hours back, a standard member sees it', async () => {
    const listing = await earlier(7, () => createListing(h.url, owner.token));
    expect(Date.parse(listing.createdAt as string)).toBeLessThan(Date.now() - 6 * HOUR);
    expect(await status(`/api/listing/${listing.id}`, standard.token)).toBe(200);
  });
});
