// Placing, editing, deleting and reading listings over HTTP on real stores: every rule of the
// forms, the five-listing limit, premium rights, visibility, the photo pipeline and the events.
import { inventoryQueries, LISTING_MESSAGES, ListingSchema, USER_MESSAGES, type Listing } from '@ruilplein/contracts';
import { requestQuery } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createListing, earlier, formOf, itemFields, MB, photo, PLACES, startListing, type FormFields, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
let sanne: TestMember;
let daan: TestMember;
let lotte: TestMember;
let bea: TestMember;

beforeAll(async () => {
  h = await startListing();
  [sanne, daan, lotte, bea] = await Promise.all([
    h.member({ firstName: 'Sanne', ...PLACES.utrecht }),
    h.member({ firstName: 'Daan', ...PLACES.amsterdam }),
    h.member({ firstName: 'Lotte', ...PLACES.rotterdam, roles: ['Gebruiker', 'Premium'] }),
    h.member({ firstName: 'Bea', roles: ['Gebruiker', 'Beheerder'] }),
  ]);
});
afterAll(async () => {
  await h?.close();
});

const listingsCount = () => h.db.collection('listings').countDocuments();
const filesCount = () => h.db.collection('listing_photos.files').countDocuments();
const create = (token: string, fields: FormFields, files: Record<string, Buffer[]>) =>
  call(h.url, '/api/listing/create', { method: 'POST', token, body: formOf(fields, files) });
const update = (token: string, id: string, fields: FormFields, files: Record<string, Buffer[]> = {}) =>
  call(h.url, `/api/listing/update/${id}`, { method: 'POST', token, body: formOf(fields, files) });
const get = async (id: string, token?: string) => call(h.url, `/api/listing/${id}`, { token });
const download = async (path: string) => Buffer.from(await (await call(h.url, path)).arrayBuffer());
const eventsOf = (type: string, id: string) => h.events.filter((e) => e.type === type && ((e.payload as { id?: string; userId?: string }).id ?? (e.payload as { userId?: string }).userId) === id);

/** A member of their own, so counts and limits start at zero. */
const fresh = (fields: Parameters<ListingHarness['member']>[0] = {}) => h.member({ firstName: 'Nieuw', ...fields });

describe('placing a listing', () => {
  it('stores the listing with re-encoded photos and answers it as the contract says', async () => {
    const big = await photo({ width: 3200, height: 2400, color: '#ef4444' });
    const res = await create(sanne.token, itemFields({ initialValue: '120,5', CategoryIDs: ['fietsen', 'sport'] }), { images: [big, await photo({ format: 'png' })] });
    expect(res.status).toBe(201);
    const { message, listing } = await body(res);
    expect(message).toBe(LISTING_MESSAGES.created);
    expect(ListingSchema.parse(listing)).toEqual(listing);
    expect(listing).toMatchObject({
      title: 'Stadsfiets',
      description: 'Een degelijke fiets met drie versnellingen.',
      listingType: 'item',
      acceptsItems: false,
      isPremium: false,
      initialValue: 120.5,
      isActive: true,
      distanceInKm: 0,
      user: { id: sanne.id, firstName: 'Sanne', city: 'Utrecht' },
    });
    expect(listing.listingCategories.map((c: { id: string }) => c.id)).toEqual(['fietsen', 'sport']);
    expect(listing.id).toMatch(/^[0-9a-f]{24}$/);
    expect(listing.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(listing.listingPhotos).toHaveLength(2);
    expect(listing.imageUrl).toBe(listing.listingPhotos[0].imageUrl);

    // WebP of at most 1600 px, a 480 px thumbnail, no metadata (the camera's EXIF and GPS are gone).
    const [first] = listing.listingPhotos;
    expect(first).toMatchObject({ width: 1600, height: 1200 });
    const main = await sharp(await download(first.imageUrl)).metadata();
    expect(main).toMatchObject({ format: 'webp', width: 1600, height: 1200 });
    expect(main.exif).toBeUndefined();
    const thumb = await sharp(await download(first.thumbnailUrl)).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 480, height: 360 });

    // Served as immutable files; a revalidation is a 304.
    const served = await call(h.url, first.imageUrl);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await served.body?.cancel();
    const again = await call(h.url, first.imageUrl, { headers: { 'if-none-match': served.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await call(h.url, '/uploads/listings/ffffffffffffffffffffffff.webp')).status).toBe(404);

    // Announced: the listing (version 1) and the owner's count.
    await expect.poll(() => eventsOf('listing.listing.created', listing.id).length).toBe(1);
    expect(eventsOf('listing.listing.created', listing.id)[0]!.payload).toMatchObject({
      id: listing.id,
      version: 1,
      ownerId: sanne.id,
      active: true,
      title: 'Stadsfiets',
      categoryIds: ['fietsen', 'sport'],
      imageUrl: first.imageUrl,
      latitude: PLACES.utrecht.latitude,
      longitude: PLACES.utrecht.longitude,
    });
    await expect.poll(() => eventsOf('listing.owner.counted', sanne.id).at(-1)?.payload).toMatchObject({ userId: sanne.id, activeListings: 1 });
  });

  it('takes the edit form’s names too, values with a dot, services accepting items, and no value', async () => {
    const member = await fresh();
    const res = await create(
      member.token,
      { Title: '  Bijles  ', Description: 'Wiskunde', ListingType: 'Service', AcceptsItems: 'true', CategoryIDs: 'lessen,oppas', initialValue: '' },
      { Images: [await photo({ format: 'webp' })] },
    );
    expect(res.status).toBe(201);
    const { listing } = await body(res);
    expect(listing).toMatchObject({ title: 'Bijles', listingType: 'service', acceptsItems: true, initialValue: null });
    expect(listing.listingCategories.map((c: { id: string }) => c.id)).toEqual(['lessen', 'oppas']);
    // An item never accepts items (only a service can).
    const item = await createListing(h.url, member.token, itemFields({ acceptsItems: 'true', initialValue: '0.99' }));
    expect(item).toMatchObject({ acceptsItems: false, initialValue: 0.99 });
  });

  it('refuses every malformed field with the form’s message and stores nothing', async () => {
    const member = await fresh();
    const image = await photo();
    const cases: [FormFields, Record<string, Buffer[]>, string][] = [
      [itemFields({ title: undefined }), { images: [image] }, LISTING_MESSAGES.titleRequired],
      [itemFields({ title: '   ' }), { images: [image] }, LISTING_MESSAGES.titleRequired],
      [itemFields({ title: 'x'.repeat(101) }), { images: [image] }, LISTING_MESSAGES.titleTooLong],
      [itemFields({ description: ' ' }), { images: [image] }, LISTING_MESSAGES.descriptionRequired],
      [itemFields({ description: 'x'.repeat(2001) }), { images: [image] }, LISTING_MESSAGES.descriptionTooLong],
      [itemFields({ initialValue: 'twintig' }), { images: [image] }, LISTING_MESSAGES.invalidValue],
      [itemFields({ initialValue: '-1' }), { images: [image] }, LISTING_MESSAGES.invalidValue],
      [itemFields({ initialValue: '1000000,01' }), { images: [image] }, LISTING_MESSAGES.valueOutOfRange],
      [itemFields({ listingType: 'auto' }), { images: [image] }, LISTING_MESSAGES.invalidType],
      [itemFields({ CategoryIDs: undefined }), { images: [image] }, LISTING_MESSAGES.categoryRequired],
      [itemFields({ CategoryIDs: ['fietsen', 'bestaat-niet'] }), { images: [image] }, LISTING_MESSAGES.unknownCategory],
      [itemFields(), {}, LISTING_MESSAGES.photoRequired],
      [itemFields(), { images: [image, image, image], Images: [image, image, image] }, LISTING_MESSAGES.tooManyPhotos],
      [itemFields(), { images: Array(6).fill(image) }, LISTING_MESSAGES.tooManyPhotos],
      [itemFields(), { images: [Buffer.from('Dit is geen foto.')] }, LISTING_MESSAGES.photoNotImage],
      [itemFields(), { images: [image, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(2000, 7)])] }, LISTING_MESSAGES.photoNotImage],
      // A small file that would unpack into 48 megapixels.
      [itemFields(), { images: [await photo({ width: 8000, height: 6000, format: 'png' })] }, LISTING_MESSAGES.photoTooManyPixels],
    ];
    const listingsBefore = await listingsCount();
    const filesBefore = await filesCount();
    for (const [fields, files, message] of cases) {
      const res = await create(member.token, fields, files);
      expect(res.status, message).toBe(400);
      expect((await body(res)).message).toBe(message);
    }
    expect(await listingsCount()).toBe(listingsBefore);
    expect(await filesCount()).toBe(filesBefore);
    expect(eventsOf('listing.owner.counted', member.id)).toEqual([]);
  });

  it('refuses photos over 20 MB together, and a far larger body, without storing anything', async () => {
    const member = await fresh();
    const filesBefore = await filesCount();
    // Each under the limit, together over it.
    const part = Buffer.concat([await photo(), Buffer.alloc(7 * MB)]);
    const together = await create(member.token, itemFields(), { images: [part, part, part] });
    expect(together.status).toBe(400);
    expect((await body(together)).message).toBe(LISTING_MESSAGES.photosTooLarge);
    const huge = await create(member.token, itemFields(), { images: [Buffer.alloc(21 * MB, 1)] });
    expect(huge.status).toBe(400);
    expect((await body(huge)).message).toBe(LISTING_MESSAGES.photosTooLarge);
    expect(await filesCount()).toBe(filesBefore);
    expect(await h.db.collection('listings').countDocuments({ ownerId: member.id })).toBe(0);
  });

  it('refuses what is not a form, and a guest', async () => {
    const json = await call(h.url, '/api/listing/create', { method: 'POST', token: sanne.token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(itemFields()) });
    expect(json.status).toBe(400);
    const guest = await call(h.url, '/api/listing/create', { method: 'POST', body: formOf(itemFields(), { images: [await photo()] }) });
    expect(guest.status).toBe(401);
  });

  it('keeps premium categories and premium-only listings for Premium members, by the projection not the token', async () => {
    const member = await fresh();
    const image = await photo();
    const category = await create(member.token, itemFields({ CategoryIDs: ['fietsen', 'vinyl'] }), { images: [image] });
    expect(category.status).toBe(403);
    expect((await body(category)).message).toBe(LISTING_MESSAGES.premiumCategoryRefused);
    const premiumOnly = await create(member.token, itemFields({ isPremium: 'true' }), { images: [image] });
    expect(premiumOnly.status).toBe(403);
    expect((await body(premiumOnly)).message).toBe(LISTING_MESSAGES.premiumListingRefused);

    // A token claiming Premium changes nothing: rights come from auth's events.
    const claimed = await h.issuer.sign({ sub: member.id, roles: ['Gebruiker', 'Premium'] });
    expect((await create(claimed, itemFields({ isPremium: 'on' }), { images: [image] })).status).toBe(403);
    expect(await h.db.collection('listings').countDocuments({ ownerId: member.id })).toBe(0);

    const premium = await createListing(h.url, lotte.token, itemFields({ isPremium: 'true', CategoryIDs: ['vinyl'] }));
    expect(premium).toMatchObject({ isPremium: true });
    // A running subscription is Premium too, as is an admin role.
    const subscribed = await fresh({ subscriptionEndsAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await createListing(h.url, subscribed.token, itemFields({ isPremium: 'true', CategoryIDs: ['cameras'] }))).isPremium).toBe(true);
    const ended = await fresh({ subscriptionEndsAt: new Date(Date.now() - 1000).toISOString() });
    expect((await create(ended.token, itemFields({ isPremium: 'true' }), { images: [image] })).status).toBe(403);
    expect((await createListing(h.url, bea.token, itemFields({ isPremium: 'true', CategoryIDs: ['design'] }))).isPremium).toBe(true);
  });

  it('allows a member without Premium five active listings, Premium members more', async () => {
    const member = await fresh();
    const image = await photo();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createListing(h.url, member.token, itemFields({ title: `Ding ${i}` }), [image])).id);
    const filesBefore = await filesCount();
    const sixth = await create(member.token, itemFields({ title: 'Ding 6' }), { images: [image] });
    expect(sixth.status).toBe(403);
    expect((await body(sixth)).message).toBe(LISTING_MESSAGES.activeLimit);
    expect(await filesCount()).toBe(filesBefore);
    await expect.poll(() => eventsOf('listing.owner.counted', member.id).at(-1)?.payload).toMatchObject({ activeListings: 5 });

    // Deleting one frees a place.
    expect((await call(h.url, `/api/listing/delete/${ids[0]}`, { method: 'DELETE', token: member.token })).status).toBe(200);
    await createListing(h.url, member.token, itemFields({ title: 'Ding 6' }), [image]);

    // Several at once cannot pass the limit together. One create's photos at a time per member: the
    // others may be 429 (probe finding 3); then one after another until the limit answers.
    const racer = await fresh();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(racer.token, itemFields({ title: `Race ${i}` }), { images: [image] })));
    expect(answers.every((r) => [201, 403, 409, 429].includes(r.status))).toBe(true);
    const active = () => h.db.collection('listings').countDocuments({ ownerId: racer.id, active: true });
    expect(await active()).toBe(answers.filter((r) => r.status === 201).length);
    let next = await create(racer.token, itemFields({ title: 'Race daarna' }), { images: [image] });
    for (let i = 0; next.status === 201 && i < 5; i++) next = await create(racer.token, itemFields({ title: `Race daarna ${i}` }), { images: [image] });
    expect(next.status).toBe(403);
    expect(await active()).toBe(5);

    const premium = await fresh({ roles: ['Gebruiker', 'Premium'] });
    for (let i = 0; i < 6; i++) await createListing(h.url, premium.token, itemFields({ title: `Premium ${i}` }), [image]);
    await expect.poll(() => eventsOf('listing.owner.counted', premium.id).at(-1)?.payload).toMatchObject({ activeListings: 6 });
  });
});

describe('editing a listing', () => {
  it('saves the fields and keeps the photos when none are sent', async () => {
    const listing = await createListing(h.url, sanne.token);
    const res = await update(sanne.token, listing.id, { Title: 'Stadsfiets (nieuwe banden)', Description: 'Nu met nieuwe banden.', ListingType: 'Service', AcceptsItems: 'true', initialValue: '99.99', CategoryIDs: ['klussen'] });
    expect(res.status).toBe(200);
    const answer = await body(res);
    expect(answer.message).toBe(LISTING_MESSAGES.updated);
    expect(answer.listing).toMatchObject({ id: listing.id, title: 'Stadsfiets (nieuwe banden)', listingType: 'service', acceptsItems: true, initialValue: 99.99, listingPhotos: listing.listingPhotos });
    await expect.poll(() => eventsOf('listing.listing.updated', listing.id).at(-1)?.payload).toMatchObject({ version: 2, title: 'Stadsfiets (nieuwe banden)', categoryIds: ['klussen'] });
  });

  it('replaces the photos with new ones (in Images or images) and removes the old files', async () => {
    const listing = (await createListing(h.url, sanne.token, itemFields(), [await photo(), await photo({ color: '#22c55e' })])) as unknown as Listing;
    const old = listing.listingPhotos.flatMap((p) => [p.imageUrl, p.thumbnailUrl]);
    const res = await update(sanne.token, listing.id, itemFields(), { Images: [await photo({ width: 400, height: 800, color: '#000000' })] });
    expect(res.status).toBe(200);
    const { listing: edited } = await body(res);
    expect(edited.listingPhotos).toHaveLength(1);
    expect(edited.listingPhotos[0]).toMatchObject({ width: 400, height: 800 });
    expect(edited.placeholder).not.toBe(listing.placeholder);
    for (const path of old) expect((await call(h.url, path)).status).toBe(404);
    expect((await call(h.url, edited.imageUrl)).status).toBe(200);

    const again = await update(sanne.token, listing.id, itemFields(), { images: [await photo(), await photo()] });
    expect((await body(again)).listing.listingPhotos).toHaveLength(2);
    expect((await call(h.url, edited.imageUrl)).status).toBe(404);
  });

  it('lets only the owner edit, and refuses bad input without changing or storing anything', async () => {
    const listing = await earlier(7, () => createListing(h.url, sanne.token));
    const filesBefore = await filesCount();
    for (const token of [daan.token, lotte.token, bea.token]) {
      const res = await update(token, listing.id, itemFields({ title: 'Van mij' }), { Images: [await photo()] });
      expect(res.status).toBe(403);
      expect((await body(res)).message).toBe(LISTING_MESSAGES.notOwner);
    }
    const cases: [FormFields, Record<string, Buffer[]>, number, string][] = [
      [itemFields({ title: '' }), {}, 400, LISTING_MESSAGES.titleRequired],
      [itemFields({ CategoryIDs: [] }), {}, 400, LISTING_MESSAGES.categoryRequired],
      [itemFields({ CategoryIDs: ['gitaren'] }), {}, 403, LISTING_MESSAGES.premiumCategoryRefused],
      [itemFields({ IsPremium: 'true' }), {}, 403, LISTING_MESSAGES.premiumListingRefused],
      [itemFields(), { Images: [Buffer.from('%PDF-1.4')] }, 400, LISTING_MESSAGES.photoNotImage],
      [itemFields(), { Images: Array(6).fill(Buffer.from('x')) }, 400, LISTING_MESSAGES.tooManyPhotos],
    ];
    for (const [fields, files, status, message] of cases) {
      const res = await update(sanne.token, listing.id, fields, files);
      expect(res.status, message).toBe(status);
      expect((await body(res)).message).toBe(message);
    }
    expect(await filesCount()).toBe(filesBefore);
    expect(await h.db.collection('listings').findOne({ _id: listing.id as never })).toMatchObject({ title: 'Stadsfiets', version: 1 });
    expect((await update(sanne.token, 'ffffffffffffffffffffffff', itemFields())).status).toBe(404);
    expect((await update(sanne.token, 'x'.repeat(61), itemFields())).status).toBe(400);
  });

  it('lets a member whose Premium ended keep the premium parts of their listing, but not add to them', async () => {
    const member = await fresh({ roles: ['Gebruiker', 'Premium'] });
    const listing = await createListing(h.url, member.token, itemFields({ isPremium: 'true', CategoryIDs: ['vinyl'] }));
    await member.update({ roles: ['Gebruiker'] });
    expect((await update(member.token, listing.id, itemFields({ title: 'Platen', IsPremium: 'true', CategoryIDs: ['vinyl'] }))).status).toBe(200);
    const added = await update(member.token, listing.id, itemFields({ IsPremium: 'true', CategoryIDs: ['vinyl', 'cameras'] }));
    expect(added.status).toBe(403);
    expect((await body(added)).message).toBe(LISTING_MESSAGES.premiumCategoryRefused);
  });
});

describe('deleting a listing', () => {
  it('lets the owner delete: gone, announced, counted, its photos removed', async () => {
    const member = await fresh();
    const listing = (await createListing(h.url, member.token)) as unknown as Listing;
    const res = await call(h.url, `/api/listing/delete/${listing.id}`, { method: 'DELETE', token: member.token });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ message: LISTING_MESSAGES.deleted });
    expect((await get(listing.id, member.token)).status).toBe(404);
    expect((await call(h.url, listing.imageUrl)).status).toBe(404);
    await expect.poll(() => eventsOf('listing.listing.deleted', listing.id).map((e) => e.payload)).toEqual([{ id: listing.id, version: 2, ownerId: member.id }]);
    await expect.poll(() => eventsOf('listing.owner.counted', member.id).at(-1)?.payload).toMatchObject({ activeListings: 0 });
    // Once the deletion is published, the tombstone is swept.
    const { sweepTombstones } = await import('../src/listings/lifecycle.ts');
    const { listingCollection } = await import('../src/listings/model.ts');
    const { wishlistCollection } = await import('../src/wishlist/model.ts');
    await expect.poll(async () => (await h.db.collection('listings').findOne({ _id: listing.id as never }))?.outboxPending).toBeUndefined();
    await sweepTombstones({ listings: listingCollection(h.db), wishlist: wishlistCollection(h.db) }, new Date(Date.now() + 120_000));
    expect(await h.db.collection('listings').findOne({ _id: listing.id as never })).toBeNull();
    expect((await call(h.url, `/api/listing/delete/${listing.id}`, { method: 'DELETE', token: member.token })).status).toBe(404);
  });

  it('refuses other members (403), also Premium ones; an admin may delete any listing', async () => {
    const listing = await earlier(7, () => createListing(h.url, sanne.token));
    for (const token of [daan.token, lotte.token]) {
      const res = await call(h.url, `/api/listing/delete/${listing.id}`, { method: 'DELETE', token });
      expect(res.status).toBe(403);
      expect((await body(res)).message).toBe(LISTING_MESSAGES.notOwner);
    }
    // A Moderator by the token (signed by auth) is enough, even before the projection knows it.
    const moderator = await fresh();
    const token = await h.issuer.sign({ sub: moderator.id, roles: ['Gebruiker', 'Moderator'] });
    expect((await call(h.url, `/api/listing/delete/${listing.id}`, { method: 'DELETE', token })).status).toBe(200);
    const premiumOnly = await createListing(h.url, lotte.token, itemFields({ isPremium: 'true' }));
    expect((await call(h.url, `/api/listing/delete/${premiumOnly.id}`, { method: 'DELETE', token: daan.token })).status).toBe(404);
    expect((await call(h.url, `/api/listing/delete/${premiumOnly.id}`, { method: 'DELETE', token: bea.token })).status).toBe(200);
    expect((await call(h.url, '/api/listing/delete/ffffffffffffffffffffffff', { method: 'DELETE', token: bea.token })).status).toBe(404);
    expect((await call(h.url, `/api/listing/delete/${listing.id}`, { method: 'DELETE' })).status).toBe(401);
  });
});

describe('reading listings', () => {
  let open: string;
  let fresh6h: string;
  let premiumOnly: string;

  beforeAll(async () => {
    open = (await earlier(24, () => createListing(h.url, daan.token, itemFields({ title: 'Boormachine' })))).id;
    fresh6h = (await createListing(h.url, daan.token, itemFields({ title: 'Nieuw' }))).id;
    premiumOnly = (await earlier(24, () => createListing(h.url, lotte.token, itemFields({ title: 'Camera', isPremium: 'true', CategoryIDs: ['cameras'] })))).id;
  });

  it('shows a public listing to everyone, a new one (6 hours) and a premium-only one to Premium members and the owner', async () => {
    const visible = async (id: string, token?: string) => {
      const res = await get(id, token);
      if (res.status === 404) expect((await body(res)).message).toBe(LISTING_MESSAGES.notFound);
      else await res.body?.cancel();
      return res.status;
    };
    expect(await visible(open)).toBe(200);
    expect(await visible(open, sanne.token)).toBe(200);
    expect(await visible(fresh6h)).toBe(404);
    expect(await visible(fresh6h, sanne.token)).toBe(404);
    expect(await visible(fresh6h, daan.token)).toBe(200);
    expect(await visible(fresh6h, lotte.token)).toBe(200);
    expect(await visible(premiumOnly)).toBe(404);
    expect(await visible(premiumOnly, sanne.token)).toBe(404);
    expect(await visible(premiumOnly, bea.token)).toBe(200);
    expect(await visible(premiumOnly, lotte.token)).toBe(200);
    // An expired or foreign token reads as a guest on this public route.
    expect(await visible(open, await h.issuer.signWithForeignKey({ sub: sanne.id }))).toBe(200);
    expect(await visible('ffffffffffffffffffffffff')).toBe(404);
  });

  it('measures the distance from the caller’s own place, null when unknown', async () => {
    const listing: Listing = await body(await get(open, sanne.token));
    expect(listing.distanceInKm).toBe(34.2);
    expect(String(listing.distanceInKm)).toMatch(/^\d+(\.\d)?$/);
    expect(listing.user).toEqual({ id: daan.id, firstName: 'Daan', lastName: expect.any(String), city: 'Amsterdam' });
    expect((await body(await get(open))).distanceInKm).toBeNull();
    const nowhere = await fresh({ city: undefined, latitude: undefined, longitude: undefined });
    expect((await body(await get(open, nowhere.token))).distanceInKm).toBeNull();
  });

  it('refuses malformed ids with 400', async () => {
    expect((await get('x'.repeat(61))).status).toBe(400);
    expect((await get('%zz')).status).toBe(400);
  });

  it('lists the own listings, active and inactive, newest first', async () => {
    const member = await fresh();
    const first = await createListing(h.url, member.token, itemFields({ title: 'Eerste' }));
    const second = await createListing(h.url, member.token, itemFields({ title: 'Tweede' }));
    await h.db.collection('listings').updateOne({ _id: first.id as never }, { $set: { active: false } });
    const mine: Listing[] = await body(await call(h.url, '/api/listing/my', { token: member.token }));
    expect(mine.map((l) => [l.id, l.isActive])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect((await call(h.url, '/api/listing/my')).status).toBe(401);
    // Someone else does not see the inactive one.
    expect((await get(first.id, sanne.token)).status).toBe(404);
  });

  it('finds a member’s listings through their owner document, also one from before its list', async () => {
    const member = await fresh();
    const kept = await createListing(h.url, member.token, itemFields({ title: 'Blijft' }));
    const gone = await createListing(h.url, member.token, itemFields({ title: 'Gaat weg' }));
    const owners = h.db.collection<{ _id: string; listed?: Record<string, Date> }>('listing_owners');
    expect(Object.keys((await owners.findOne({ _id: member.id }))?.listed ?? {}).sort()).toEqual([kept.id, gone.id].sort());
    expect((await call(h.url, `/api/listing/delete/${gone.id}`, { method: 'DELETE', token: member.token })).status).toBe(200);
    expect(Object.keys((await owners.findOne({ _id: member.id }))?.listed ?? {})).toEqual([kept.id]);
    // A document written before owners listed their listings: filled from the listings once.
    await owners.updateOne({ _id: member.id }, { $unset: { listed: '' } });
    const mine: Listing[] = await body(await call(h.url, '/api/listing/my', { token: member.token }));
    expect(mine.map((l) => l.id)).toEqual([kept.id]);
    expect(Object.keys((await owners.findOne({ _id: member.id }))?.listed ?? {})).toEqual([kept.id]);
    const theirs: Listing[] = await body(await call(h.url, `/api/listing/user/${member.id}`, { token: sanne.token }));
    expect(theirs.map((l) => l.id)).toEqual([]); // younger than 6 hours: not for a standard member
    const forPremium: Listing[] = await body(await call(h.url, `/api/listing/user/${member.id}`, { token: lotte.token }));
    expect(forPremium.map((l) => l.id)).toEqual([kept.id]);
  });

  it('lists a member’s active listings as far as the caller may see them', async () => {
    const ids = async (token?: string) => {
      const answer = await body(await call(h.url, `/api/listing/user/${daan.id}`, { token }));
      expect(Array.isArray(answer), JSON.stringify(answer)).toBe(true);
      return (answer as Listing[]).map((l) => l.id);
    };
    expect(await ids()).toContain(open);
    expect(await ids()).not.toContain(fresh6h);
    expect(await ids(lotte.token)).toEqual(expect.arrayContaining([open, fresh6h]));
    expect(await ids(daan.token)).toEqual(expect.arrayContaining([open, fresh6h]));
    const lottes = async (token?: string) => ((await body(await call(h.url, `/api/listing/user/${lotte.id.toUpperCase()}`, { token }))) as Listing[]).map((l) => l.id);
    expect(await lottes(sanne.token)).not.toContain(premiumOnly);
    expect(await lottes(bea.token)).toContain(premiumOnly);
    expect(await body(await call(h.url, '/api/listing/user/ffffffffffffffffffffffff'))).toEqual([]);
  });

  it('answers the inventory with the crate, over HTTP as far as the caller may see and over NATS in full', async () => {
    const items = async (token: string) => body(await call(h.url, `/api/listing/inventory/${daan.id}`, { token }));
    const asSanne = await items(sanne.token);
    expect(asSanne.map((i: { listingID: string }) => i.listingID)).toContain(open);
    expect(asSanne.map((i: { listingID: string }) => i.listingID)).not.toContain(fresh6h);
    expect(asSanne.at(-1)).toEqual({
      listingID: 'krat-bier',
      userID: daan.id,
      title: 'Krat Bier',
      description: expect.any(String),
      imageUrl: '/uploads/listings/krat-bier.webp',
      thumbnailUrl: '/uploads/listings/krat-bier.webp',
      isDefault: true,
    });
    expect(asSanne.find((i: { listingID: string }) => i.listingID === open)).toMatchObject({ userID: daan.id, title: 'Boormachine', isDefault: false });
    expect((await items(lotte.token)).map((i: { listingID: string }) => i.listingID)).toContain(fresh6h);

    const all = await requestQuery(h.bus, inventoryQueries.get, { userId: daan.id });
    expect(all.map((i) => i.listingID)).toEqual(expect.arrayContaining([open, fresh6h, 'krat-bier']));
    // As the trade service asks for a sender: what that member may see, by the projection.
    const forSanne = (await requestQuery(h.bus, inventoryQueries.get, { userId: daan.id, viewerId: sanne.id })).map((i) => i.listingID);
    expect(forSanne).toContain(open);
    expect(forSanne).not.toContain(fresh6h);
    expect((await requestQuery(h.bus, inventoryQueries.get, { userId: daan.id, viewerId: lotte.id })).map((i) => i.listingID)).toContain(fresh6h);
    await expect(requestQuery(h.bus, inventoryQueries.get, { userId: 'ffffffffffffffffffffffff' })).rejects.toMatchObject({ status: 404, message: USER_MESSAGES.userNotFound });
    expect((await call(h.url, '/api/listing/inventory/ffffffffffffffffffffffff', { token: sanne.token })).status).toBe(404);
    expect((await call(h.url, `/api/listing/inventory/${daan.id}`)).status).toBe(401);
  });

  it('serves the crate’s picture', async () => {
    const res = await call(h.url, '/uploads/listings/krat-bier.webp');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 640, height: 480 });
  });
});

describe('the service', () => {
  it('documents the listing routes and keeps the route by id after the fixed paths', async () => {
    const doc = await body(await call(h.url, '/openapi.json'));
    for (const path of ['/api/listing/create', '/api/listing/update/{id}', '/api/listing/delete/{id}', '/api/listing/{id}', '/api/listing/my', '/api/listing/user/{userId}', '/api/listing/inventory/{userId}']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect((await call(h.url, '/api/listing/my', { token: sanne.token })).status).toBe(200);
  });

});
