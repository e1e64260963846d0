// GET /api/listing/recent (issue 27): the landing page's newest public listings. A guest's view for
// every caller: past the six-hour head start, not Premium-only, not deleted, not of a suspended
// member; newest first, at most eight; nothing of the owner but their town.
import { RECENT_LISTINGS_MAX, type PublicListing } from '@ruilplein/contracts';
import { ensureStream, publishEvent } from '@ruilplein/service-kit';
import { body, suspensionEvents } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createListing, earlier, itemFields, placeListing, startListing, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
let owner: TestMember;
let premium: TestMember;

beforeAll(async () => {
  // Nothing kept between calls: each answer shows the index as it is.
  h = await startListing({ recentKeptMs: 0 });
  [owner, premium] = await Promise.all([h.member({ firstName: 'Eigenaar' }), h.member({ roles: ['Gebruiker', 'Premium'] })]);
  await ensureStream(h.adminBus, 'moderation');
});
afterAll(async () => {
  await h?.close();
});

async function recent(token?: string) {
  const res = await call(h.url, '/api/listing/recent', token ? { token } : {});
  const list = (await body(res)) as PublicListing[];
  expect(res.status, JSON.stringify(list)).toBe(200);
  return { list, cacheControl: res.headers.get('cache-control') };
}
const ids = async () => (await recent()).list.map((l) => l.id);
const { suspensions } = suspensionEvents(() => new Date().toISOString());

describe('GET /api/listing/recent', () => {
  it('shows a listing to guests once its head start is over, with only what is public, the same to everyone', async () => {
    const fresh = await createListing(h.url, owner.token, itemFields({ title: 'Verse fiets' }));
    const older = await earlier(7, () => createListing(h.url, owner.token, itemFields({ title: 'Oude fiets' })));
    // The fresh one was announced first: once the older one is in, so is it (for Premium members).
    await expect.poll(ids).toContain(older.id);
    const { list, cacheControl } = await recent();
    expect(list.map((l) => l.id)).not.toContain(fresh.id);
    expect(cacheControl).toMatch(/^public/);
    const shown = list.find((l) => l.id === older.id)!;
    expect(Object.keys(shown).sort()).toEqual(['city', 'createdAt', 'id', 'listingCategories', 'listingType', 'placeholder', 'thumbnailUrl', 'title']);
    expect(shown).toMatchObject({ title: 'Oude fiets', city: 'Utrecht', listingType: 'item', createdAt: older.createdAt });
    expect(shown.listingCategories.map((c) => c.id)).toEqual(['fietsen']);
    expect(shown.thumbnailUrl).toMatch(/^\/uploads\/listings\/.+/);
    expect(shown.placeholder).toMatch(/^data:image\//);
    // Signed in, even as Premium member or as the owner: the guest's list, so caches may share it.
    expect((await recent(premium.token)).list).toEqual(list);
    expect((await recent(owner.token)).list).toEqual(list);
  });

  it('leaves out Premium-only listings, deleted ones and those of a suspended member', async () => {
    const premiumOnly = await earlier(7, () => createListing(h.url, premium.token, itemFields({ title: 'Alleen voor premium', isPremium: 'true' })));
    const removed = await earlier(7, () => createListing(h.url, owner.token, itemFields({ title: 'Wordt verwijderd' })));
    const suspended = await h.member({ firstName: 'Geschorst' });
    const ofSuspended = await earlier(7, () => createListing(h.url, suspended.token, itemFields({ title: 'Van een geschorst lid' })));
    const open = await earlier(7, () => createListing(h.url, premium.token, itemFields({ title: 'Voor iedereen' })));
    // Announced in this order: once the last is in, the Premium-only one was considered.
    await expect.poll(ids).toContain(open.id);
    expect(await ids()).toEqual(expect.arrayContaining([removed.id, ofSuspended.id]));
    expect(await ids()).not.toContain(premiumOnly.id);

    const deleted = await call(h.url, `/api/listing/delete/${removed.id}`, { method: 'DELETE', token: owner.token });
    expect(deleted.status).toBe(200);
    await publishEvent(h.adminBus, suspensions['moderation.user.suspended (ban)'](suspended.id, 1));
    await expect.poll(ids).not.toContain(removed.id);
    await expect.poll(ids).not.toContain(ofSuspended.id);
    expect(await ids()).toContain(open.id);
  });

  it(`answers the newest ${RECENT_LISTINGS_MAX}, newest first`, async () => {
    const other = await h.member({ firstName: 'Veelplaatser' });
    // Newer than everything above (placed seven hours back), each a little older than the one before.
    const placed = [];
    for (let i = 0; i <= RECENT_LISTINGS_MAX; i++) placed.push(await placeListing(h, other.id, { title: `Boekenkast ${i}` }, 6.2 + i * 0.05));
    const newest = placed.slice(0, RECENT_LISTINGS_MAX).map((doc) => doc._id);
    await expect.poll(ids).toEqual(newest);
    const { list } = await recent();
    expect(list.map((l) => l.title)).toEqual(placed.slice(0, RECENT_LISTINGS_MAX).map((doc) => doc.title));
  });
});
