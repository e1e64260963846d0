// GET /api/listing and /api/listing/recommendations over real HTTP on the run's stores: the index
// is loaded from the collections and kept current from the listing and auth streams.
import { ListingCardSchema, SEARCH_MESSAGES, type ListingCard } from '@ruilplein/contracts';
import { publishEvent } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listingDeleted, listingUpdated } from '../src/listings/events.ts';
import type { ListingDoc } from '../src/listings/model.ts';
import { call, createListing, itemFields, PLACES, placeListing, startListing, type ListingHarness, type TestMember } from './listings.helpers.ts';

const Cards = z.array(ListingCardSchema);

let h: ListingHarness;
/** Lives in Amsterdam; no Premium. */
let plain: TestMember;
let premium: TestMember;
/** Owns most listings; lives in Amsterdam. */
let owner: TestMember;
let homeless: TestMember;

/** One of the owner's listings, `hoursAgo` old (24 h: past the six-hour head start). */
const place = (over: Parameters<typeof placeListing>[2] = {}, hoursAgo = 24) => placeListing(h, owner.id, over, hoursAgo);

const search = async (member: TestMember, query = '') => {
  const res = await call(h.url, `/api/listing${query}`, { token: member.token });
  const answer = await body(res);
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return Cards.parse(answer);
};
const idsOf = (cards: ListingCard[]) => cards.map((c) => c.id);
/** Waits for `check` (changes reach the index as events); fails after 10 s. */
async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const found = async (id: string, member = premium, query = '?distanceKm=500&take=50') => idsOf(await search(member, query)).includes(id);

beforeAll(async () => {
  h = await startListing();
  await until(async () => (await fetch(`${h.url}/readyz`)).status === 200);
  [plain, premium, owner, homeless] = await Promise.all([
    h.member({ ...PLACES.amsterdam }),
    h.member({ ...PLACES.amsterdam, roles: ['Premium'] }),
    h.member({ ...PLACES.amsterdam, firstName: 'Olga', lastName: 'Eigenaar' }),
    h.member({ city: undefined, latitude: undefined, longitude: undefined }),
  ]);
});
afterAll(async () => {
  await h?.close();
});

describe('GET /api/listing', () => {
  it('refuses malformed parameters with their message, and guests with 401', async () => {
    const cases: [string, string][] = [
      ['page=0', SEARCH_MESSAGES.invalidPage],
      ['page=twee', SEARCH_MESSAGES.invalidPage],
      ['take=0', SEARCH_MESSAGES.invalidTake],
      ['take=51', SEARCH_MESSAGES.invalidTake],
      ['distanceKm=0', SEARCH_MESSAGES.invalidDistance],
      ['distanceKm=501', SEARCH_MESSAGES.invalidDistance],
      ['distanceKm=ver', SEARCH_MESSAGES.invalidDistance],
      ['minValue=-1', SEARCH_MESSAGES.invalidValue],
      ['maxValue=1000001', SEARCH_MESSAGES.invalidValue],
      ['maxValue=duur', SEARCH_MESSAGES.invalidValue],
      ['minValue=10&maxValue=5', SEARCH_MESSAGES.valueRange],
      [`categoryIds=${'x'.repeat(61)}`, SEARCH_MESSAGES.invalidCategory],
      [`categoryIds=${Array.from({ length: 51 }, (_, i) => `c${i}`).join(',')}`, SEARCH_MESSAGES.invalidCategory],
      ['listingType=auto', SEARCH_MESSAGES.invalidType],
      ['barterMode=geld', SEARCH_MESSAGES.invalidBarterMode],
      ['premium=ja', SEARCH_MESSAGES.invalidPremium],
    ];
    for (const [query, message] of cases) {
      const res = await call(h.url, `/api/listing?${query}`, { token: plain.token });
      expect(res.status, query).toBe(400);
      expect((await body(res)).message, query).toBe(message);
    }
    expect((await call(h.url, '/api/listing')).status).toBe(401);
    // Case and decimal comma are forgiven.
    expect((await call(h.url, '/api/listing?listingType=Service&barterMode=ALL&premium=False&minValue=1,5', { token: plain.token })).status).toBe(200);
  });

  it('answers cards within 25 km of the caller’s own place, distance with one decimal', async () => {
    const near = await place({ initialValue: 12.5, categoryIds: ['meubels', 'huishouden'] });
    const utrecht = await place({ ...PLACES.utrecht });
    await until(() => found(utrecht._id));

    const cards = await search(plain);
    expect(idsOf(cards)).toContain(near._id);
    expect(idsOf(cards)).not.toContain(utrecht._id);
    const card = cards.find((c) => c.id === near._id)!;
    expect(card).toEqual({
      id: near._id,
      title: near.title,
      description: near.description.slice(0, 200),
      imageUrl: near.photos[0]!.imageUrl,
      thumbnailUrl: near.photos[0]!.thumbnailUrl,
      placeholder: near.placeholder,
      listingType: 'item',
      acceptsItems: false,
      isPremium: false,
      initialValue: 12.5,
      createdAt: near.createdAt.toISOString(),
      isActive: true,
      listingCategories: [
        { id: 'meubels', name: 'Meubels', icon: 'sofa', isPremium: false },
        { id: 'huishouden', name: 'Huis & keuken', icon: 'cooking-pot', isPremium: false },
      ],
      distanceInKm: 0,
      user: { id: owner.id, firstName: 'Olga', lastName: 'Eigenaar', city: 'Amsterdam' },
    });
    // Utrecht is 34 km from Amsterdam.
    const wider = await search(plain, '?distanceKm=40');
    expect(wider.find((c) => c.id === utrecht._id)?.distanceInKm).toBe(34.2);
  });

  it('without a place of one’s own: no distance filter, distance null', async () => {
    const far = await place({ latitude: 53.2194, longitude: 6.5665 });
    await until(() => found(far._id));
    const cards = await search(homeless, '?distanceKm=1&take=50');
    expect(idsOf(cards)).toContain(far._id);
    expect(cards.every((c) => c.distanceInKm === null)).toBe(true);
  });

  it('shows premium-only and new listings to premium members and the owner only; premium=true keeps only premium listings', async () => {
    const onlyPremium = await place({ isPremium: true, title: 'Platenspeler' });
    const fresh = await place({}, 1);
    const old = await place({});
    await until(() => found(old._id));
    const plainSees = idsOf(await search(plain, '?take=50'));
    expect(plainSees).toContain(old._id);
    expect(plainSees).not.toContain(onlyPremium._id);
    expect(plainSees).not.toContain(fresh._id);
    for (const member of [premium, owner]) {
      const sees = idsOf(await search(member, '?take=50'));
      expect(sees).toEqual(expect.arrayContaining([old._id, onlyPremium._id, fresh._id]));
    }
    const premiumOnly = await search(premium, '?premium=true&take=50');
    expect(idsOf(premiumOnly)).toContain(onlyPremium._id);
    expect(premiumOnly.every((c) => c.isPremium)).toBe(true);
    expect(await search(plain, '?premium=true')).toEqual([]);
  });

  it('filters value, categories, kind and barter mode', async () => {
    const bike = await place({ categoryIds: ['fietsen'], initialValue: 150, latitude: 52.37, longitude: 4.91 });
    const noValue = await place({ categoryIds: ['fietsen'], initialValue: null, latitude: 52.37, longitude: 4.91 });
    const lessons = await place({ categoryIds: ['lessen'], listingType: 'service', acceptsItems: false, initialValue: null });
    const repairs = await place({ categoryIds: ['klussen'], listingType: 'service', acceptsItems: true, initialValue: 25 });
    await until(() => found(repairs._id));

    expect(idsOf(await search(plain, '?categoryIds=fietsen&take=50')).sort()).toEqual([bike._id, noValue._id].sort());
    expect(idsOf(await search(plain, '?categoryIds=fietsen&minValue=0&maxValue=100'))).toEqual([noValue._id]);
    expect(idsOf(await search(plain, '?categoryIds=fietsen&minValue=100'))).toEqual([bike._id]);
    expect(idsOf(await search(plain, '?categoryIds=lessen,klussen,onbekend&take=50')).sort()).toEqual([lessons._id, repairs._id].sort());
    const services = await search(plain, '?listingType=service&take=50');
    expect(services.every((c) => c.listingType === 'service')).toBe(true);
    expect(idsOf(services)).toEqual(expect.arrayContaining([lessons._id, repairs._id]));
    expect(idsOf(await search(plain, '?listingType=service&barterMode=services_only&take=50'))).toEqual(
      expect.arrayContaining([lessons._id]),
    );
    expect(idsOf(await search(plain, '?listingType=service&barterMode=services_only&take=50'))).not.toContain(repairs._id);
    expect(idsOf(await search(plain, '?listingType=service&barterMode=services_or_items&take=50'))).toEqual([repairs._id]);
    expect((await search(plain, '?listingType=item&take=50')).every((c) => c.listingType === 'item')).toBe(true);
  });

  it('pages newest first without repeats or gaps', async () => {
    // Ten days and more ago, spread over a place of their own, with equal times in pairs.
    for (let i = 0; i < 32; i++) await place({ latitude: 52.5, longitude: 5.9, categoryIds: ['tuin'] }, 10 * 24 + Math.floor(i / 2));
    const last = await place({ latitude: 52.5, longitude: 5.9, categoryIds: ['tuin'] }, 10 * 24 + 40);
    await until(() => found(last._id));
    const seen: ListingCard[] = [];
    for (let page = 1; page <= 4; page++) seen.push(...(await search(premium, `?categoryIds=tuin&distanceKm=500&take=10&page=${page}`)));
    expect(seen.length).toBe(33);
    expect(new Set(idsOf(seen)).size).toBe(33);
    const times = seen.map((c) => Date.parse(c.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await search(premium, '?categoryIds=tuin&distanceKm=500&take=10&page=5')).toEqual([]);
    // The default page holds 15.
    expect((await search(premium, '?categoryIds=tuin&distanceKm=500')).length).toBe(15);
  });

  it('follows changes and deletions by version, and the owner’s name', async () => {
    const doc = await place({ title: 'Oude titel' });
    await until(() => found(doc._id));
    const moved: ListingDoc = { ...doc, title: 'Nieuwe titel', version: 2, ...PLACES.rotterdam };
    await publishEvent(h.bus, listingUpdated(moved));
    // A late older state changes nothing.
    await publishEvent(h.bus, listingUpdated({ ...doc, title: 'Te laat', version: 1 }));
    await until(async () => (await search(premium, '?distanceKm=500&take=50')).find((c) => c.id === doc._id)?.title === 'Nieuwe titel');
    expect(idsOf(await search(premium))).not.toContain(doc._id);

    await owner.update({ firstName: 'Olga', lastName: 'Verhuisd' });
    await until(async () => (await search(premium, '?distanceKm=500&take=50')).find((c) => c.id === doc._id)?.user.lastName === 'Verhuisd');
    await owner.update({ firstName: 'Olga', lastName: 'Eigenaar' });

    await publishEvent(h.bus, listingDeleted({ ...moved, version: 3 }));
    await until(async () => !(await found(doc._id)));
    await publishEvent(h.bus, listingUpdated({ ...moved, version: 2 }));
    const inactive = await place({});
    await until(() => found(inactive._id));
    await publishEvent(h.bus, listingUpdated({ ...inactive, active: false, version: 2 }));
    await until(async () => !(await found(inactive._id)));
    expect(await found(doc._id)).toBe(false);
  });

  it('finds a listing placed through the API at once for premium members, after six hours for others', async () => {
    const listing = await createListing(h.url, owner.token, itemFields({ title: 'Nieuwe racefiets', CategoryIDs: ['sport'] }));
    await until(() => found(listing.id, premium, '?categoryIds=sport&take=50'));
    expect(idsOf(await search(owner, '?categoryIds=sport&take=50'))).toContain(listing.id);
    expect(idsOf(await search(plain, '?categoryIds=sport&take=50'))).not.toContain(listing.id);
  });
});

describe('GET /api/listing/recommendations', () => {
  it('checks its parameters and that userId is the caller', async () => {
    const other = await call(h.url, `/api/listing/recommendations?userId=${premium.id}`, { token: plain.token });
    expect(other.status).toBe(403);
    expect((await call(h.url, `/api/listing/recommendations?userId=${plain.id}`)).status).toBe(401);
    for (const [query, message] of [
      ['radiusKm=3', SEARCH_MESSAGES.invalidRadius],
      ['radiusKm=ver', SEARCH_MESSAGES.invalidRadius],
      ['page=0', SEARCH_MESSAGES.invalidPage],
    ]) {
      const res = await call(h.url, `/api/listing/recommendations?userId=${plain.id}&${query}`, { token: plain.token });
      expect(res.status, query).toBe(400);
      expect((await body(res)).message).toBe(message);
    }
    // The id in another case is still the caller.
    expect((await call(h.url, `/api/listing/recommendations?userId=${plain.id.toUpperCase()}`, { token: plain.token })).status).toBe(200);
  });

  it('ranks within the radius: premium first, then interest, then newness; never one’s own', async () => {
    // A quiet corner (Leeuwarden), so only this test's listings are within 5 km.
    const corner = { city: 'Leeuwarden', latitude: 53.2012, longitude: 5.7999 };
    const [viewer, neighbour, fan1, fan2] = await Promise.all([h.member({ ...corner }), h.member({ ...corner, roles: ['Premium'] }), h.member({ ...corner }), h.member({ ...corner })]);
    const daysAgo = (days: number) => days * 24;
    const mine = await place({ ownerId: viewer.id, ...corner }, daysAgo(1));
    const stale = await place({ ...corner }, daysAgo(30));
    const liked = await place({ ...corner }, daysAgo(20));
    const newish = await place({ ...corner }, daysAgo(1));
    const ofPremium = await place({ ownerId: neighbour.id, ...corner }, daysAgo(40));
    const farAway = await place({ ...PLACES.utrecht }, daysAgo(1));
    await until(() => found(farAway._id));
    for (const fan of [fan1, fan2]) {
      const res = await call(h.url, `/api/wishlist/add/${liked._id}`, { method: 'POST', token: fan.token });
      expect(res.status).toBe(200);
    }
    const recommend = async (member: TestMember, query = '') => {
      const res = await call(h.url, `/api/listing/recommendations?userId=${member.id}${query}`, { token: member.token });
      expect(res.status).toBe(200);
      return Cards.parse(await body(res));
    };
    await until(async () => idsOf(await recommend(viewer, '&radiusKm=5'))[1] === liked._id);
    const cards = await recommend(viewer, '&radiusKm=5');
    expect(idsOf(cards)).toEqual([ofPremium._id, liked._id, newish._id, stale._id]);
    expect(idsOf(cards)).not.toContain(mine._id);
    expect(cards[0]!.distanceInKm).toBe(0);
    // Six a page; a member without a place gets none.
    expect((await recommend(plain, '&radiusKm=25')).length).toBeLessThanOrEqual(6);
    expect(await recommend(homeless)).toEqual([]);
  });
});

describe('readiness', () => {
  it('reports the search index and the saved searches among the checks', async () => {
    expect(await body(await fetch(`${h.url}/readyz`))).toEqual({ status: 'ready', checks: { mongodb: 'ok', nats: 'ok', search: 'ok', savedSearches: 'ok' } });
  });
});
