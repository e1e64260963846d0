// Local mode's demo listings: seeded once per demo member as soon as auth's event about them
// arrives, through the ordinary creation (photos, events, counts), never twice.
import { FREE_ACTIVE_LISTINGS_MAX, PREMIUM_HEAD_START_HOURS, type Listing } from '@ruilplein/contracts';
import { DEMO_LISTINGS, DEMO_MEMBERS as DEMO_OWNERS, demoListingId, demoListingIdByTitle, type DemoOwner } from '@ruilplein/contracts/demo';
import { body } from '@ruilplein/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, PLACES, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

const PLACE_OF = DEMO_OWNERS;

let h: ListingHarness;
const demo = {} as Record<DemoOwner, TestMember>;

beforeAll(async () => {
  h = await startListing({ local: true });
  // Namesakes elsewhere (or without a place) are not demo members.
  await h.member({ firstName: 'Sanne', lastName: 'Jansen', city: undefined, latitude: undefined, longitude: undefined });
  await h.member({ ...DEMO_OWNERS.daan, ...PLACES.utrecht });
  for (const key of Object.keys(DEMO_OWNERS) as DemoOwner[]) {
    const roles = key === 'bea' ? (['Gebruiker', 'Beheerder'] as const) : key === 'lotte' ? (['Gebruiker', 'Premium'] as const) : (['Gebruiker'] as const);
    demo[key] = await h.member({ ...DEMO_OWNERS[key], roles: [...roles] });
  }
  await waitFor(async () => (await h.db.collection('demo_seed').countDocuments()) === 5, 'five demo members seeded', 120_000);
}, 180_000);
afterAll(async () => {
  await h?.close();
});

const listings = () => h.db.collection<{ _id: string; ownerId: string; isPremium: boolean; createdAt: Date; listingType: string; categoryIds: string[]; photos: unknown[]; latitude?: number }>('listings');

describe('demo listings', () => {
  it('seeds thirty listings for the demo members: items and services, premium ones, new ones, in their places', async () => {
    const all = await listings().find({}).toArray();
    expect(all).toHaveLength(DEMO_LISTINGS.length);
    expect(await h.db.collection('demo_seed').countDocuments()).toBe(5);
    expect(DEMO_LISTINGS.length).toBeGreaterThanOrEqual(30);
    for (const [index, spec] of DEMO_LISTINGS.entries()) {
      const owner = demo[spec.owner];
      const doc = all.find((l) => l._id === demoListingId(owner.id, index));
      expect(doc, spec.title).toMatchObject({ ownerId: owner.id, isPremium: !!spec.isPremium, listingType: spec.listingType, latitude: PLACE_OF[spec.owner].latitude });
      expect(doc!.photos).toHaveLength(spec.second ? 2 : 1);
      expect(Math.abs(Date.now() - spec.hoursAgo * 3600_000 - doc!.createdAt.getTime())).toBeLessThan(120_000);
    }
    const services = all.filter((l) => l.listingType === 'service').length;
    expect(services).toBeGreaterThanOrEqual(8);
    expect(all.filter((l) => l.isPremium).length).toBeGreaterThanOrEqual(4);
    expect(all.filter((l) => l.createdAt.getTime() > Date.now() - PREMIUM_HEAD_START_HOURS * 3600_000).length).toBeGreaterThanOrEqual(4);
    expect(new Set(all.flatMap((l) => l.categoryIds)).size).toBeGreaterThanOrEqual(15);
    // A member without Premium may still place one more.
    expect(all.filter((l) => l.ownerId === demo.sanne.id).length).toBeLessThan(FREE_ACTIVE_LISTINGS_MAX);
    expect(demoListingIdByTitle(demo.sanne.id, 'Stadsfiets met drie versnellingen')).toBe(demoListingId(demo.sanne.id, 0));
  });

  it('went through the ordinary creation: pictures, events and counts', async () => {
    const id = demoListingIdByTitle(demo.bea.id, 'Platenspeler Technics SL-1200');
    const listing: Listing = await body(await call(h.url, `/api/listing/${id}`, { token: demo.lotte.token }));
    expect(listing).toMatchObject({ title: 'Platenspeler Technics SL-1200', isPremium: true, user: { id: demo.bea.id, firstName: 'Bea', city: 'Utrecht' } });
    expect(listing.listingPhotos).toHaveLength(2);
    const picture = Buffer.from(await (await call(h.url, listing.imageUrl)).arrayBuffer());
    expect(await sharp(picture).metadata()).toMatchObject({ format: 'webp', width: 800, height: 600 });
    expect((await call(h.url, `/api/listing/${id}`, { token: demo.sanne.token })).status).toBe(404);
    await expect.poll(() => h.events.filter((e) => e.type === 'listing.listing.created').length, { timeout: 15_000 }).toBe(DEMO_LISTINGS.length);
    const counted = h.events.filter((e) => e.type === 'listing.owner.counted' && (e.payload as { userId: string }).userId === demo.lotte.id);
    expect(counted.at(-1)?.payload).toMatchObject({ activeListings: DEMO_LISTINGS.filter((l) => l.owner === 'lotte').length });
  });

  it('never seeds twice: not on a later event, not after a restart, not a listing the member deleted', async () => {
    const deleted = demoListingId(demo.daan.id, DEMO_LISTINGS.findIndex((l) => l.owner === 'daan'));
    expect((await call(h.url, `/api/listing/delete/${deleted}`, { method: 'DELETE', token: demo.daan.token })).status).toBe(200);
    await demo.daan.update({ lastName: 'de Vries' });
    await h.restart();
    await new Promise((r) => setTimeout(r, 1000));
    expect(await listings().countDocuments({ deletedAt: { $exists: false } })).toBe(DEMO_LISTINGS.length - 1);
    expect((await call(h.url, `/api/listing/${deleted}`, { token: demo.daan.token })).status).toBe(404);
  });

  it('seeds at start the demo members the projection already has', async () => {
    await h.db.collection('demo_seed').deleteOne({ _id: demo.fatima.id as never });
    const theirs = DEMO_LISTINGS.flatMap((l, i) => (l.owner === 'fatima' ? [demoListingId(demo.fatima.id, i)] : []));
    await listings().deleteOne({ _id: theirs[0]! });
    await h.restart();
    await waitFor(async () => !!(await listings().findOne({ _id: theirs[0]! })), 'a demo listing seeded again at start', 30_000);
    await waitFor(async () => (await h.db.collection('demo_seed').countDocuments({ _id: demo.fatima.id as never })) === 1, 'the mark', 30_000);
    expect(await listings().countDocuments({ ownerId: demo.fatima.id })).toBe(theirs.length);
  });
});
