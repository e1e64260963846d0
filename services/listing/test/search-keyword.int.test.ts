// Keyword search (issue 23) over real HTTP on the run's stores: `q` on GET /api/listing (and so on
// the services page's call), GET /api/listing/suggest, the seed's filters beside `q`, a stable order,
// and an edited listing found by its new words on a second replica within a second.
import { ListingCardSchema, SEARCH_MESSAGES, type ListingCard } from '@ruilplein/contracts';
import { body, listen } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createListingService } from '../src/app.ts';
import type { SearchService } from '../src/search/sync.ts';
import { call, createListing, formOf, itemFields, logger, PLACES, placeListing, startListing, type ListingHarness, type TestMember } from './listings.helpers.ts';

const Cards = z.array(ListingCardSchema);

let h: ListingHarness;
/** Lives in Utrecht; no Premium. */
let plain: TestMember;
let premium: TestMember;
let owner: TestMember;
type Key = 'kinderfiets' | 'racefiets' | 'fietsbel' | 'verweg' | 'reparatie' | 'premiumfiets' | 'nieuw' | 'cafe' | `twin${number}`;
const ids = {} as Record<Key, string>;

const search = async (member: TestMember, query: string, url = h.url) => {
  const res = await call(url, `/api/listing${query}`, { token: member.token });
  const answer = await body(res);
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return Cards.parse(answer);
};
const idsOf = (cards: ListingCard[]) => cards.map((c) => c.id);
/** Within 30 km of Utrecht: Rotterdam (about 50 km) is out. */
const q = (text: string, more = '') => `?q=${encodeURIComponent(text)}&distanceKm=30&take=50${more}`;

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** 0.01° of latitude is about 1.1 km. */
const near = (km: number) => ({ latitude: PLACES.utrecht.latitude + km / 111, longitude: PLACES.utrecht.longitude });

beforeAll(async () => {
  h = await startListing();
  plain = await h.member({ ...PLACES.utrecht });
  premium = await h.member({ ...PLACES.utrecht, roles: ['Premium'] });
  owner = await h.member({ ...PLACES.utrecht });
  const place = async (key: Key, over: Parameters<typeof placeListing>[2], hoursAgo = 24) => (ids[key] = (await placeListing(h, owner.id, over, hoursAgo))._id);
  await place('kinderfiets', { title: 'Kinderfiets', description: 'Blauwe fiets met zijwieltjes voor kinderen vanaf 4 jaar.', categoryIds: ['fietsen', 'kinderen'], initialValue: 35, ...near(3) });
  await place('racefiets', { title: 'Racefiets Gazelle', description: 'Lichte racefiets met 18 versnellingen.', categoryIds: ['fietsen', 'sport'], initialValue: 300, ...near(12) });
  await place('fietsbel', { title: 'Bel en slot', description: 'Een bel en een kettingslot voor je fiets.', categoryIds: ['fietsen'], initialValue: 5, ...near(1) });
  await place('verweg', { title: 'Stadsfiets', description: 'Degelijke stadsfiets.', categoryIds: ['fietsen'], initialValue: 90, ...PLACES.rotterdam });
  await place('reparatie', { title: 'Fietsreparatie aan huis', description: 'Ik plak je band en stel je remmen af.', listingType: 'service', acceptsItems: true, categoryIds: ['klussen'], initialValue: null, ...near(2) });
  await place('premiumfiets', { title: 'Carbon racefiets', description: 'Alleen voor premium leden.', categoryIds: ['fietsen'], isPremium: true, ...near(4) });
  await place('nieuw', { title: 'Kinderfietsje roze', description: 'Net geplaatst.', categoryIds: ['fietsen'], ...near(5) }, 1);
  await place('cafe', { title: 'Café-tafeltje', description: 'Rond bistrotafeltje.', categoryIds: ['meubels'], ...near(2) });
  // Twins: the same words, place and age: their order must hold across calls and pages.
  for (let i = 0; i < 6; i++) await place(`twin${i}`, { title: 'Tweelingkast', description: 'Dezelfde kast.', categoryIds: ['meubels'], ...near(6) }, 30);
  await until(async () => idsOf(await search(premium, q('tweelingkast'))).length === 6);
});
afterAll(async () => {
  await h?.close();
});

describe('q on GET /api/listing', () => {
  it('finds compounds by their last part and tolerates a typo (the browser journey: fietsne)', async () => {
    const found = idsOf(await search(plain, q('fietsne')));
    expect(found).toEqual(expect.arrayContaining([ids.kinderfiets, ids.racefiets]));
    expect(found).not.toContain(ids.cafe);
  });

  it('folds diacritics and stems plurals and diminutives', async () => {
    expect(idsOf(await search(plain, q('cafe')))).toContain(ids.cafe);
    expect(idsOf(await search(plain, q('tafel')))).toContain(ids.cafe);
    expect(idsOf(await search(plain, q('fietsen')))).toEqual(expect.arrayContaining([ids.kinderfiets, ids.racefiets, ids.fietsbel]));
  });

  it('ranks title matches first, then nearer, then newer', async () => {
    const found = idsOf(await search(plain, q('fiets')));
    // Titles with the word (compounds count) before a description-only match.
    expect(found.indexOf(ids.kinderfiets)).toBeLessThan(found.indexOf(ids.fietsbel));
    expect(found.indexOf(ids.racefiets)).toBeLessThan(found.indexOf(ids.fietsbel));
    // Same relevance: nearer first (3 km before 12 km).
    expect(found.indexOf(ids.kinderfiets)).toBeLessThan(found.indexOf(ids.racefiets));
  });

  it('keeps the seed’s filters and the Premium rule', async () => {
    expect(idsOf(await search(plain, q('fiets', '&maxValue=50')))).not.toContain(ids.racefiets);
    expect(idsOf(await search(plain, q('fiets', '&categoryIds=kinderen')))).toEqual([ids.kinderfiets]);
    expect(idsOf(await search(plain, `?q=fiets&distanceKm=10`))).not.toContain(ids.racefiets);
    expect(idsOf(await search(plain, q('fiets')))).not.toContain(ids.verweg);
    // Premium-only and younger than six hours: Premium members only.
    expect(idsOf(await search(plain, q('fiets')))).not.toContain(ids.premiumfiets);
    expect(idsOf(await search(plain, q('fiets')))).not.toContain(ids.nieuw);
    expect(idsOf(await search(premium, q('fiets')))).toEqual(expect.arrayContaining([ids.premiumfiets, ids.nieuw]));
  });

  it('works on the services page’s call (services, barter policy)', async () => {
    expect(idsOf(await search(plain, q('fiets', '&listingType=service&barterMode=services_or_items')))).toEqual([ids.reparatie]);
    expect(idsOf(await search(plain, q('fiets', '&listingType=service&barterMode=services_only')))).toEqual([]);
  });

  it('answers ties in one stable order, across calls and pages', async () => {
    const all = idsOf(await search(plain, q('tweelingkast')));
    expect(all).toHaveLength(6);
    expect(idsOf(await search(plain, q('tweelingkast')))).toEqual(all);
    const first = idsOf(await search(plain, `?q=tweelingkast&distanceKm=30&take=4&page=1`));
    const second = idsOf(await search(plain, `?q=tweelingkast&distanceKm=30&take=4&page=2`));
    expect([...first, ...second]).toEqual(all);
  });

  it('changes nothing without q, and refuses a q that is too long in Dutch', async () => {
    expect(idsOf(await search(plain, '?distanceKm=30&take=50&q=%20%20'))).toEqual(idsOf(await search(plain, '?distanceKm=30&take=50')));
    const res = await call(h.url, `/api/listing?q=${'a'.repeat(101)}`, { token: plain.token });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await body(res))).toContain(SEARCH_MESSAGES.queryTooLong);
  });
});

describe('GET /api/listing/suggest', () => {
  it('completes the last word, at most 8, and nothing for nothing', async () => {
    const suggest = async (text: string) => {
      const res = await call(h.url, `/api/listing/suggest?q=${encodeURIComponent(text)}`, { token: plain.token });
      expect(res.status).toBe(200);
      return z.array(z.string()).parse(await body(res));
    };
    expect(await suggest('kinderf')).toContain('kinderfiets');
    expect(await suggest('blauwe kinderf')).toContain('blauwe kinderfiets');
    expect((await suggest('e')).length).toBeLessThanOrEqual(8);
    expect(await suggest('')).toEqual([]);
    const tooLong = await call(h.url, `/api/listing/suggest?q=${'a'.repeat(101)}`, { token: plain.token });
    expect(tooLong.status).toBe(400);
    expect((await call(h.url, '/api/listing/suggest?q=fie')).status).toBe(401);
  });
});

describe('on a second replica', () => {
  it('finds an edited listing by its new words within a second', async () => {
    const service = await createListingService({ db: h.db, bus: h.bus, redis: h.redis, logger, verifyToken: h.issuer.verifyToken });
    const server = await listen(service.app);
    const replica = service.workers!.find((w): w is SearchService => 'engine' in w)!;
    try {
      await replica.ready;
      const listing = await createListing(h.url, premium.token, itemFields({ title: 'Grasmaaier', description: 'Handmaaier, werkt prima.', CategoryIDs: ['tuin'] }));
      await until(async () => idsOf(await search(premium, q('grasmaaier'), server.url)).includes(listing.id), 5000);
      const res = await call(h.url, `/api/listing/update/${listing.id}`, {
        method: 'POST',
        token: premium.token,
        body: formOf(itemFields({ title: 'Heggenschaar op accu', description: 'Snoeit je heg in een wip.', CategoryIDs: ['tuin'] })),
      });
      expect(res.status, JSON.stringify(await body(res))).toBe(200);
      const edited = Date.now();
      await until(async () => idsOf(await search(premium, q('heggenschaar'), server.url)).includes(listing.id), 5000);
      expect(Date.now() - edited).toBeLessThan(1000);
      expect(idsOf(await search(premium, q('grasmaaier'), server.url))).not.toContain(listing.id);
    } finally {
      await server.close();
      for (const worker of service.workers ?? []) await worker.stop();
    }
  });
});
