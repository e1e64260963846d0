// The members projection (auth's events) and what follows from it for listings: a listing moves
// with its owner, a deleted account takes its listings and wishlist along (a suspended member's
// listings: moderation.int.test.ts).
import { eventRegistry, type Listing, type ListingCard, type ListingEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createListing, earlier, itemFields, PLACES, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
let viewer: TestMember;

beforeAll(async () => {
  h = await startListing();
  viewer = await h.member({ firstName: 'Kijker', ...PLACES.utrecht });
});
afterAll(async () => {
  await h?.close();
});

const members = () => h.db.collection<{ _id: string }>('members');
const listingDoc = (id: string) => h.db.collection<{ _id: string; latitude?: number; version?: number }>('listings').findOne({ _id: id });
const updatesOf = (id: string) => h.events.filter((e) => e.type === 'listing.listing.updated' && (e.payload as ListingEvent).id === id).map((e) => e.payload as ListingEvent);

describe('the members projection', () => {
  it('keeps the newest state of each member and ignores older events', async () => {
    const member = await h.member({ firstName: 'Sanne', lastName: 'Jansen', roles: ['Gebruiker'] });
    await member.update({ roles: ['Gebruiker', 'Premium'], subscriptionEndsAt: '2030-01-01T00:00:00.000Z' });
    expect(await members().findOne({ _id: member.id })).toMatchObject({ version: 2, firstName: 'Sanne', roles: ['Gebruiker', 'Premium'], city: 'Utrecht', activated: true });

    // Version 1 again (a redelivery or a late copy): nothing changes.
    const old = createEvent(eventRegistry, 'auth.user.registered', { id: member.id, version: 1, firstName: 'Oud', lastName: 'Jansen', profilePicture: '/x', roles: ['Gebruiker'], activated: false });
    await publishEvent(h.adminBus, old);
    // A marker after it: once that is applied, the old one was handled too.
    const marker = await h.member();
    expect(marker.id).toBeTruthy();
    await new Promise((r) => setTimeout(r, 300));
    expect(await members().findOne({ _id: member.id })).toMatchObject({ version: 2, firstName: 'Sanne', activated: true });

    // Fields an event leaves out are gone: a cleared city, an ended subscription.
    await member.update({ city: undefined, latitude: undefined, longitude: undefined, subscriptionEndsAt: undefined });
    const doc = await members().findOne({ _id: member.id });
    expect(doc).toMatchObject({ version: 3 });
    expect(doc).not.toHaveProperty('city');
    expect(doc).not.toHaveProperty('latitude');
    expect(doc).not.toHaveProperty('subscriptionEndsAt');
  });
});

describe('a listing’s place is its owner’s', () => {
  it('moves every listing when the owner moves, announced with a new version', async () => {
    const owner = await h.member({ firstName: 'Daan', ...PLACES.utrecht });
    const [first, second] = await earlier(7, async () => [await createListing(h.url, owner.token, itemFields({ title: 'Eerste' })), await createListing(h.url, owner.token, itemFields({ title: 'Tweede' }))]);
    expect((await body(await call(h.url, `/api/listing/${first.id}`, { token: viewer.token }))).distanceInKm).toBe(0);

    await owner.update(PLACES.amsterdam);
    // Moved listing by listing: wait for both.
    await waitFor(async () => (await listingDoc(first.id))?.latitude === PLACES.amsterdam.latitude && (await listingDoc(second.id))?.latitude === PLACES.amsterdam.latitude, 'listings moved');
    for (const id of [first.id, second.id]) {
      expect(await listingDoc(id)).toMatchObject({ latitude: PLACES.amsterdam.latitude, longitude: PLACES.amsterdam.longitude, version: 2 });
      await expect.poll(() => updatesOf(id).at(-1)).toMatchObject({ version: 2, latitude: PLACES.amsterdam.latitude, longitude: PLACES.amsterdam.longitude });
    }
    const seen: Listing = await body(await call(h.url, `/api/listing/${first.id}`, { token: viewer.token }));
    expect(seen.distanceInKm).toBe(34.2);
    expect(seen.user.city).toBe('Amsterdam');

    // A change that does not move them (a new name) leaves the listings alone.
    await owner.update({ firstName: 'Daniël' });
    expect((await listingDoc(first.id))).toMatchObject({ version: 2 });
    expect((await body(await call(h.url, `/api/listing/${first.id}`))).user.firstName).toBe('Daniël');

    // No place any more: the listings have none either.
    await owner.update({ city: undefined, latitude: undefined, longitude: undefined });
    await waitFor(async () => (await listingDoc(first.id))?.version === 3, 'listing without a place');
    expect(await listingDoc(first.id)).not.toHaveProperty('latitude');
    await expect.poll(() => updatesOf(first.id).at(-1)?.version).toBe(3);
    expect(updatesOf(first.id).at(-1)).not.toHaveProperty('latitude');
    expect((await body(await call(h.url, `/api/listing/${first.id}`, { token: viewer.token }))).distanceInKm).toBeNull();
  });

  it('names no place beside a distance measured elsewhere, while a listing has not followed its moved owner yet (issue 27)', async () => {
    // '124 km · Zeist' beside '13 km · Zeist': the name is the owner's, the distance is measured to
    // the listing's copy of the place, which follows a move a moment later, listing by listing.
    const searcher = await h.member({ firstName: 'Zoeker', ...PLACES.utrecht, roles: ['Gebruiker', 'Premium'], subscriptionEndsAt: '2030-01-01T00:00:00.000Z' });
    const owner = await h.member({ firstName: 'Verhuizer', ...PLACES.rotterdam });
    const listing = await earlier(24, () => createListing(h.url, owner.token, itemFields({ title: 'Verhuisdoos' })));
    await owner.update(PLACES.amsterdam);
    await waitFor(async () => (await listingDoc(listing.id))?.latitude === PLACES.amsterdam.latitude, 'listing moved');
    await expect.poll(() => updatesOf(listing.id).at(-1)?.latitude).toBe(PLACES.amsterdam.latitude);

    // The listing's copy as it is before the move reaches it: still Rotterdam (47.8 km from Utrecht), in the store and in the index.
    await h.db.collection('listings').updateOne({ _id: listing.id as never }, { $set: { latitude: PLACES.rotterdam.latitude, longitude: PLACES.rotterdam.longitude } });
    const last = updatesOf(listing.id).at(-1)!;
    await publishEvent(h.bus, createEvent(eventRegistry, 'listing.listing.updated', { ...last, version: last.version + 1, title: 'Verhuisdoos (onderweg)', latitude: PLACES.rotterdam.latitude, longitude: PLACES.rotterdam.longitude }));

    // Rotterdam's distance, without Amsterdam's name (the search's filters use the same copy).
    const detail: Listing = await body(await call(h.url, `/api/listing/${listing.id}`, { token: searcher.token }));
    expect([detail.distanceInKm, detail.user.city]).toEqual([47.8, undefined]);
    const [onProfile] = (await body(await call(h.url, `/api/listing/user/${owner.id}`, { token: searcher.token }))) as Listing[];
    expect([onProfile!.distanceInKm, onProfile!.user.city]).toEqual([47.8, undefined]);
    // The search, once its index holds the stale copy (the title says so).
    const card = async () => ((await body(await call(h.url, '/api/listing?distanceKm=500&take=50&maxValue=5000', { token: searcher.token }))) as ListingCard[]).find((c) => c.id === listing.id);
    await expect.poll(async () => (await card())?.title, { timeout: 10_000 }).toBe('Verhuisdoos (onderweg)');
    const stale = (await card())!;
    expect([stale.distanceInKm, stale.user.city]).toEqual([47.8, undefined]);

    // Once the copy follows (the next move event), name and distance agree again.
    await owner.update({ ...PLACES.amsterdam, firstName: 'Verhuisd' });
    await h.db.collection('listings').updateOne({ _id: listing.id as never }, { $set: { latitude: PLACES.amsterdam.latitude, longitude: PLACES.amsterdam.longitude } });
    const again: Listing = await body(await call(h.url, `/api/listing/${listing.id}`, { token: searcher.token }));
    expect([again.distanceInKm, again.user.city]).toEqual([34.2, 'Amsterdam']);
  });

  it('gives a new listing its owner’s place', async () => {
    const owner = await h.member({ ...PLACES.rotterdam });
    const listing = await createListing(h.url, owner.token);
    expect(await listingDoc(listing.id)).toMatchObject({ latitude: PLACES.rotterdam.latitude, longitude: PLACES.rotterdam.longitude });
  });
});

describe('a deleted account', () => {
  it('takes its listings, its wishlist and the wishlist entries on its listings along', async () => {
    const leaving = await h.member({ firstName: 'Weg' });
    const other = await h.member({ firstName: 'Blijft' });
    const own = await earlier(7, async () => [await createListing(h.url, leaving.token, itemFields({ title: 'Een' })), await createListing(h.url, leaving.token, itemFields({ title: 'Twee' }))]);
    const theirs = await earlier(7, () => createListing(h.url, other.token));
    expect((await call(h.url, `/api/wishlist/add/${theirs.id}`, { method: 'POST', token: leaving.token })).status).toBe(200);
    expect((await call(h.url, `/api/wishlist/add/${own[0]!.id}`, { method: 'POST', token: other.token })).status).toBe(200);
    const files = () => h.db.collection('listing_photos.files').countDocuments({ 'metadata.ownerId': leaving.id });
    expect(await files()).toBe(4);

    await leaving.remove();
    await waitFor(async () => (await files()) === 0, 'photos removed');
    for (const listing of own) {
      expect((await call(h.url, `/api/listing/${listing.id}`, { token: other.token })).status).toBe(404);
      await expect.poll(() => h.events.filter((e) => e.type === 'listing.listing.deleted' && (e.payload as { id: string }).id === listing.id).map((e) => e.payload)).toEqual([{ id: listing.id, version: 2, ownerId: leaving.id }]);
    }
    // The member's own wishlist entries go after its last photo: wait for them, not for the photos.
    await expect.poll(() => h.db.collection('wishlist').countDocuments({ $or: [{ userId: leaving.id }, { listingId: own[0]!.id }] })).toBe(0);
    expect(await body(await call(h.url, '/api/wishlist/my', { token: other.token }))).toEqual([]);
    expect(await h.db.collection('listing_owners').findOne({ _id: leaving.id as never })).toBeNull();
    // The tombstone keeps no personal data and ignores older events.
    expect(await members().findOne({ _id: leaving.id })).toEqual({ _id: leaving.id, version: 2, deleted: true, firstName: '', lastName: '', roles: [], activated: false });
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'auth.user.updated', { id: leaving.id, version: 1, firstName: 'Weg', lastName: 'x', profilePicture: '/x', roles: ['Gebruiker'], activated: true }));
    await h.member();
    expect(await members().findOne({ _id: leaving.id })).toMatchObject({ deleted: true });
    // A token that has not run out yet places nothing.
    const res = await call(h.url, '/api/listing/create', { method: 'POST', token: leaving.token, body: new FormData() });
    expect([400, 401]).toContain(res.status);
    expect((await call(h.url, `/api/listing/inventory/${leaving.id}`, { token: other.token })).status).toBe(404);
  });
});
