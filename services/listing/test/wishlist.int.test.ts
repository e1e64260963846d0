// The wishlist over HTTP on real stores: only listings the member may see and never their own,
// twice is once (one event), and entries whose listing is no longer visible drop out.
import { LISTING_MESSAGES, WISHLIST_MESSAGES, WishlistEntrySchema, type WishlistEntry } from '@ruilplein/contracts';
import { body } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createListing, earlier, itemFields, startListing, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
let sanne: TestMember;
let daan: TestMember;
let lotte: TestMember;
let bike: string;
let newOne: string;
let premiumOnly: string;

beforeAll(async () => {
  h = await startListing();
  [sanne, daan, lotte] = await Promise.all([h.member({ firstName: 'Sanne' }), h.member({ firstName: 'Daan' }), h.member({ firstName: 'Lotte', roles: ['Gebruiker', 'Premium'] })]);
  bike = (await earlier(7, () => createListing(h.url, daan.token, itemFields({ title: 'Fiets' })))).id;
  newOne = (await createListing(h.url, daan.token, itemFields({ title: 'Net geplaatst' }))).id;
  premiumOnly = (await earlier(7, () => createListing(h.url, lotte.token, itemFields({ title: 'Camera', isPremium: 'true' })))).id;
});
afterAll(async () => {
  await h?.close();
});

const add = (id: string, token?: string) => call(h.url, `/api/wishlist/add/${id}`, { method: 'POST', token });
const remove = (id: string, token?: string) => call(h.url, `/api/wishlist/delete/${id}`, { method: 'DELETE', token });
const exists = async (id: string, token: string) => (await body(await call(h.url, `/api/wishlist/exists/${id}`, { token }))).isWishlisted;
const mine = async (token: string): Promise<WishlistEntry[]> => body(await call(h.url, '/api/wishlist/my', { token }));
const addedEvents = (listingId: string, userId: string) =>
  h.events.filter((e) => e.type === 'listing.wishlist.added' && (e.payload as { listingId: string; userId: string }).listingId === listingId && (e.payload as { userId: string }).userId === userId);

describe('wishlist', () => {
  it('adds a listing once, however often asked, and announces it once', async () => {
    expect(await exists(bike, sanne.token)).toBe(false);
    const answers = await Promise.all([add(bike, sanne.token), add(bike, sanne.token), add(bike.toUpperCase(), sanne.token)]);
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ message: WISHLIST_MESSAGES.added });
    }
    expect(await exists(bike, sanne.token)).toBe(true);
    expect(await h.db.collection('wishlist').countDocuments({ userId: sanne.id, listingId: bike })).toBe(1);
    await expect.poll(() => addedEvents(bike, sanne.id).length).toBe(1);
    expect(addedEvents(bike, sanne.id)[0]!.payload).toEqual({ listingId: bike, userId: sanne.id, version: 1, at: expect.any(String) });
    await new Promise((r) => setTimeout(r, 300));
    expect(addedEvents(bike, sanne.id)).toHaveLength(1);
  });

  it('refuses the own listing (400) and listings the member may not see (404)', async () => {
    const own = await add(bike, daan.token);
    expect(own.status).toBe(400);
    expect((await body(own)).message).toBe(WISHLIST_MESSAGES.ownListing);
    for (const id of [newOne, premiumOnly, 'ffffffffffffffffffffffff']) {
      const res = await add(id, sanne.token);
      expect(res.status, id).toBe(404);
      expect((await body(res)).message).toBe(LISTING_MESSAGES.notFound);
    }
    // A Premium member sees them, so may keep them.
    expect((await add(newOne, lotte.token)).status).toBe(200);
    expect((await add('x'.repeat(61), sanne.token)).status).toBe(400);
    expect((await add(bike)).status).toBe(401);
  });

  it('lists the entries newest first, with what a card needs', async () => {
    const member = await h.member();
    const other = await earlier(7, () => createListing(h.url, lotte.token, itemFields({ title: 'Boeken' })));
    await add(bike, member.token);
    await add(other.id, member.token);
    const entries = await mine(member.token);
    expect(entries.map((e) => e.listing.id)).toEqual([other.id, bike]);
    for (const entry of entries) expect(WishlistEntrySchema.parse(entry)).toEqual(entry);
    expect(entries[1]!.listing).toMatchObject({ id: bike, title: 'Fiets', description: expect.any(String), imageUrl: expect.stringMatching(/^\/uploads\/listings\/[0-9a-f]{24}\.webp$/), placeholder: expect.stringMatching(/^data:/) });
    expect((await call(h.url, '/api/wishlist/my')).status).toBe(401);
  });

  it('drops entries whose listing is no longer visible: deleted, or no longer active', async () => {
    const member = await h.member();
    const [gone, traded] = await earlier(7, async () => [await createListing(h.url, daan.token, itemFields({ title: 'Verdwijnt' })), await createListing(h.url, daan.token, itemFields({ title: 'Geruild' }))]);
    await add(gone.id, member.token);
    await add(traded.id, member.token);
    await add(bike, member.token);
    expect((await mine(member.token)).map((e) => e.listing.id)).toEqual([bike, traded.id, gone.id]);
    expect((await call(h.url, `/api/listing/delete/${gone.id}`, { method: 'DELETE', token: daan.token })).status).toBe(200);
    await h.db.collection('listings').updateOne({ _id: traded.id as never }, { $set: { active: false } });
    expect((await mine(member.token)).map((e) => e.listing.id)).toEqual([bike]);
    // The deleted listing's entries are gone; the inactive one's stay (it may come back).
    expect(await exists(gone.id, member.token)).toBe(false);
    expect(await exists(traded.id, member.token)).toBe(true);
  });

  it('removes an entry, and says so when there is none', async () => {
    const member = await h.member();
    await add(bike, member.token);
    const res = await remove(bike.toUpperCase(), member.token);
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ message: WISHLIST_MESSAGES.removed });
    expect(await exists(bike, member.token)).toBe(false);
    const again = await remove(bike, member.token);
    expect(again.status).toBe(404);
    expect((await body(again)).message).toBe(WISHLIST_MESSAGES.notOnList);
    expect((await remove(bike)).status).toBe(401);
    // Someone else's entry is theirs alone.
    expect(await exists(bike, sanne.token)).toBe(true);
  });

  it('announces a removal, keeps a tombstone until it is published, and revives it on a new add', async () => {
    const member = await h.member();
    const removedEvents = () => h.events.filter((e) => e.type === 'listing.wishlist.removed' && (e.payload as { userId: string }).userId === member.id);
    await add(bike, member.token);
    expect((await remove(bike, member.token)).status).toBe(200);
    await expect.poll(() => removedEvents().length).toBe(1);
    expect(removedEvents()[0]!.payload).toEqual({ listingId: bike, userId: member.id, version: 2, at: expect.any(String) });
    // Gone for every reader, though the entry stays until the sweeper's turn.
    expect(await exists(bike, member.token)).toBe(false);
    expect((await mine(member.token)).map((e) => e.listing.id)).not.toContain(bike);
    expect(await h.db.collection('wishlist').countDocuments({ userId: member.id, listingId: bike, removedAt: { $exists: true } })).toBe(1);
    // Added again: the same entry, announced with the next version.
    expect((await add(bike, member.token)).status).toBe(200);
    expect(await exists(bike, member.token)).toBe(true);
    await expect.poll(() => addedEvents(bike, member.id).map((e) => (e.payload as { version: number }).version)).toEqual([1, 3]);
    expect(await h.db.collection('wishlist').countDocuments({ userId: member.id, listingId: bike })).toBe(1);
    // Removed again and swept once published (a minute on): the entry is gone.
    expect((await remove(bike, member.token)).status).toBe(200);
    await expect.poll(() => removedEvents().length).toBe(2);
    await expect.poll(() => h.db.collection('wishlist').countDocuments({ userId: member.id, outboxPending: true })).toBe(0);
    const { sweepTombstones } = await import('../src/listings/lifecycle.ts');
    const { listingCollection } = await import('../src/listings/model.ts');
    const { wishlistCollection } = await import('../src/wishlist/model.ts');
    await sweepTombstones({ listings: listingCollection(h.db), wishlist: wishlistCollection(h.db) }, new Date(Date.now() + 120_000));
    expect(await h.db.collection('wishlist').countDocuments({ userId: member.id, listingId: bike })).toBe(0);
  });
});
