// Saved searches with alerts and the demand preview (issue 23) on real stores: the limits and Dutch
// refusals, a new listing matched (Premium at once, a standard member when the head start ends by
// the platform clock), one alert per listing and member, never one's own or a blocked member's,
// the demand counts with `few` under three, and the rate limit.
import { SAVED_SEARCH_MESSAGES, SavedSearchSchema, type BlockEvent, type SavedSearchMatchedEvent } from '@ruilplein/contracts';
import { collection } from '@ruilplein/service-kit';
import { body, silentLogger, testClock, type TestClock } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueAlerts, type SavedAlerts } from '../src/saved/alerts.ts';
import type { BookSearch, Interest } from '../src/saved/book.ts';
import type { SavedMatchDoc } from '../src/saved/model.ts';
import { fromDoc, type SearchService } from '../src/search/sync.ts';
import { call, placeListing, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

const HOUR = 3600_000;
/** A quiet corner (Terschelling): only this file's members and listings are there. */
const CORNER = { city: 'West-Terschelling', latitude: 53.3597, longitude: 5.2153 };
/** 3 km east of it. */
const NEAR = { latitude: 53.3597, longitude: 5.2605 };
/** The demand test's corner (Schiermonnikoog, 65 km away): the searches without filters above are out of reach. */
const ISLAND = { city: 'Schiermonnikoog', latitude: 53.4803, longitude: 6.1614 };
const ISLAND_NEAR = { latitude: 53.4803, longitude: 6.2066 };
/** Category ids of this file only (other files' listings on the shared stream never share them). */
const BIKES = 'saved-test-fietsen';
const BOOKS = 'saved-test-boeken';

let h: ListingHarness;
let clock: TestClock;
let alerts: SavedAlerts;

beforeAll(async () => {
  clock = await testClock();
  h = await startListing({ savedAlerts: { headStartCheckMs: 100, refileMs: 100 } });
  await waitFor(async () => (await fetch(`${h.url}/readyz`)).status === 200, 'search and saved searches loaded');
  alerts = h.service.workers!.find((w): w is SavedAlerts => 'matchListing' in w)!;
});
afterAll(async () => {
  await h?.close();
  await clock?.close();
});

const save = (member: TestMember, json: unknown) => call(h.url, '/api/search/saved', { method: 'POST', token: member.token, json });
const list = async (member: TestMember) => SavedSearchSchema.array().parse(await body(await call(h.url, '/api/search/saved', { token: member.token })));
/** What the alerts said to this member about this listing (each event names several members). */
const matchedFor = (userId: string, listingId: string) =>
  h.events
    .filter((e) => e.type === 'listing.saved-search.matched')
    .map((e) => e.payload as SavedSearchMatchedEvent)
    .filter((p) => p.listingId === listingId)
    .flatMap(({ matches, ...rest }) => matches.filter((m) => m.userId === userId).map((m) => ({ ...rest, ...m })));
/** Members who live in the corner, Premium or not, known to the search tables (their place files their searches). */
async function resident(options: { premium?: boolean; at?: { latitude: number; longitude: number; city?: string } } = {}) {
  const member = await h.member({ ...CORNER, ...options.at, roles: options.premium ? ['Gebruiker', 'Premium'] : ['Gebruiker'] });
  await waitFor(() => alerts.viewerOf(member.id, Date.now()).latitude !== undefined, 'member in the search tables');
  return member;
}

describe('saving searches', () => {
  it('creates, lists, edits, visits and deletes a member’s own searches', async () => {
    const anna = await resident();
    const created = await save(anna, { name: '  Fietsen  ', filters: { q: 'fiets', categoryIds: [BIKES, BIKES], distanceKm: 10, maxValue: 200 }, alert: 'direct' });
    expect(created.status).toBe(201);
    const search = SavedSearchSchema.parse(await body(created));
    expect(search).toMatchObject({ name: 'Fietsen', alert: 'direct', newSinceVisit: 0, filters: { q: 'fiets', categoryIds: [BIKES], distanceKm: 10, maxValue: 200 } });
    expect(search.lastVisitAt).toBe(search.createdAt);
    expect((await list(anna)).map((s) => s.id)).toEqual([search.id]);

    const edited = await call(h.url, `/api/search/saved/${search.id}`, { method: 'PUT', token: anna.token, json: { name: 'Kinderfietsen', filters: { categoryIds: [BIKES] }, alert: 'off' } });
    expect(edited.status).toBe(200);
    expect(await body(edited)).toMatchObject({ id: search.id, name: 'Kinderfietsen', alert: 'off', filters: { categoryIds: [BIKES] }, createdAt: search.createdAt });

    // Another member can neither see, change nor delete it.
    const bram = await resident();
    expect(await list(bram)).toEqual([]);
    expect((await call(h.url, `/api/search/saved/${search.id}`, { method: 'PUT', token: bram.token, json: { name: 'x', alert: 'off' } })).status).toBe(404);
    expect((await call(h.url, `/api/search/saved/${search.id}`, { method: 'DELETE', token: bram.token })).status).toBe(404);

    const deleted = await call(h.url, `/api/search/saved/${search.id}`, { method: 'DELETE', token: anna.token });
    expect(await body(deleted)).toEqual({ message: SAVED_SEARCH_MESSAGES.deleted });
    expect(await list(anna)).toEqual([]);
    const again = await call(h.url, `/api/search/saved/${search.id}/visit`, { method: 'POST', token: anna.token });
    expect(again.status).toBe(404);
    expect(await body(again)).toMatchObject({ message: SAVED_SEARCH_MESSAGES.notFound });
  });

  it('refuses bad input with a Dutch 400 and unknown ids with 404', async () => {
    const cas = await resident();
    const refused = async (json: unknown, message: string) => {
      const res = await save(cas, json);
      const answer = (await body(res)) as { message: string };
      expect(res.status, JSON.stringify(answer)).toBe(400);
      expect(JSON.stringify(answer)).toContain(message);
    };
    await refused({ name: 'x'.repeat(61), alert: 'direct' }, SAVED_SEARCH_MESSAGES.nameTooLong);
    await refused({ name: '   ', alert: 'direct' }, SAVED_SEARCH_MESSAGES.nameRequired);
    await refused({ name: 'Fietsen', alert: 'sometimes' }, SAVED_SEARCH_MESSAGES.invalidAlert);
    await refused({ name: 'Fietsen', alert: 'off', filters: { minValue: 50, maxValue: 10 } }, 'De minimale waarde is hoger dan de maximale.');
    await refused({ name: 'Fietsen', alert: 'off', filters: { distanceKm: 0 } }, 'Ongeldige afstand');
    expect((await save(cas, { name: 'x'.repeat(60), alert: 'digest' })).status).toBe(201);
    for (const id of ['nope', 'a'.repeat(24), '$where.x']) {
      expect((await call(h.url, `/api/search/saved/${encodeURIComponent(id)}`, { method: 'PUT', token: cas.token, json: { name: 'x', alert: 'off' } })).status).toBe(404);
    }
  });

  it('keeps at most 10 per member and 50 for Premium', async () => {
    const dirk = await resident();
    for (let i = 0; i < 10; i++) expect((await save(dirk, { name: `Zoek ${i}`, alert: 'off' })).status).toBe(201);
    const eleventh = await save(dirk, { name: 'Nog een', alert: 'off' });
    expect(eleventh.status).toBe(400);
    expect(await body(eleventh)).toMatchObject({ message: SAVED_SEARCH_MESSAGES.tooMany });
    // After deleting one there is room again.
    const [first] = await list(dirk);
    await call(h.url, `/api/search/saved/${first!.id}`, { method: 'DELETE', token: dirk.token });
    expect((await save(dirk, { name: 'Nog een', alert: 'off' })).status).toBe(201);

    const eva = await resident({ premium: true });
    for (let i = 0; i < 50; i++) expect((await save(eva, { name: `Zoek ${i}`, alert: 'off' })).status).toBe(201);
    const fiftyFirst = await save(eva, { name: 'Nog een', alert: 'off' });
    expect(fiftyFirst.status).toBe(400);
    expect(await body(fiftyFirst)).toMatchObject({ message: SAVED_SEARCH_MESSAGES.tooManyPremium });
    expect(await list(eva)).toHaveLength(50);
  });
});

describe('alerts', () => {
  it('matches a new listing for a Premium member at once, one alert however many searches match, never the owner or a blocked member', async () => {
    const owner = await resident({ at: NEAR });
    const fleur = await resident({ premium: true });
    const gijs = await resident({ premium: true });
    const blocked = await resident({ premium: true });
    for (const json of [
      { name: 'Fietsen', filters: { categoryIds: [BIKES] }, alert: 'digest' },
      { name: 'Goedkope fietsen', filters: { categoryIds: [BIKES], maxValue: 100 }, alert: 'direct' },
      { name: 'Boeken', filters: { categoryIds: [BOOKS] }, alert: 'direct' },
    ]) {
      expect((await save(fleur, json)).status).toBe(201);
    }
    // Too far away for Gijs's 1 km; the owner's own search; the blocked member's.
    expect((await save(gijs, { name: 'Dichtbij', filters: { categoryIds: [BIKES], distanceKm: 1 }, alert: 'direct' })).status).toBe(201);
    expect((await save(owner, { name: 'Mijn fietsen', filters: { categoryIds: [BIKES] }, alert: 'direct' })).status).toBe(201);
    expect((await save(blocked, { name: 'Fietsen', filters: { categoryIds: [BIKES] }, alert: 'direct' })).status).toBe(201);
    const pair: BlockEvent = { blockerId: owner.id, blockedId: blocked.id, version: 1, at: new Date().toISOString() };
    await h.publish('auth.block.added', pair);
    await waitFor(() => hiddenApplied(owner.id, blocked.id), 'block applied');

    // Words: 'fietsen' finds 'Kinderfiets' (stem, compound by its last part), not a bookcase.
    const jan = await resident({ premium: true });
    expect((await save(jan, { name: 'Fiets', filters: { q: 'fietsen' }, alert: 'digest' })).status).toBe(201);

    const listing = await placeListing(h, owner.id, { title: 'Kinderfiets', categoryIds: [BIKES], initialValue: 60, ...NEAR }, 0);
    await waitFor(() => matchedFor(fleur.id, listing._id).length > 0, 'Fleur alerted');
    await waitFor(() => matchedFor(jan.id, listing._id).length === 1, 'the keyword search matched');
    const bookcase = await placeListing(h, owner.id, { title: 'Boekenkast', categoryIds: [BIKES], initialValue: 60, ...NEAR }, 0);
    await waitFor(() => matchedFor(fleur.id, bookcase._id).length === 1, 'Fleur alerted for the bookcase');
    expect(matchedFor(jan.id, bookcase._id)).toEqual([]);
    const [event] = matchedFor(fleur.id, listing._id);
    // The strongest alert among her matching searches names the alert.
    expect(event).toMatchObject({ title: 'Kinderfiets', searchName: 'Goedkope fietsen', alert: 'direct', version: 1 });
    expect(event!.distanceKm).toBeCloseTo(3, 0);
    // 'Fietsen' and 'Goedkope fietsen' each count the bike and the bookcase (both 60 euro); 'Boeken' neither.
    await waitFor(async () => (await list(fleur)).filter((s) => s.newSinceVisit === 2).length === 2, 'both matching searches count both');
    expect((await list(fleur)).find((s) => s.name === 'Boeken')!.newSinceVisit).toBe(0);

    // A redelivery (or a second replica) matching it again alerts nobody again.
    expect(await alerts.matchListing(fromDoc(listing))).toBe(0);
    expect(matchedFor(fleur.id, listing._id)).toHaveLength(1);
    for (const member of [gijs, owner, blocked]) expect(matchedFor(member.id, listing._id)).toEqual([]);

    // Seen: the count starts again.
    const seen = (await list(fleur)).find((s) => s.name === 'Fietsen')!;
    const visited = SavedSearchSchema.parse(await body(await call(h.url, `/api/search/saved/${seen.id}/visit`, { method: 'POST', token: fleur.token })));
    expect(visited.newSinceVisit).toBe(0);
    expect(Date.parse(visited.lastVisitAt)).toBeGreaterThan(Date.parse(seen.lastVisitAt) - 1);
  });

  it('alerts a standard member only when the six-hour head start ends (the platform clock)', async () => {
    const owner = await resident({ at: NEAR });
    const hanna = await resident();
    const ivo = await resident({ premium: true });
    for (const member of [hanna, ivo]) expect((await save(member, { name: 'Boeken', filters: { categoryIds: [BOOKS] }, alert: 'direct' })).status).toBe(201);
    const listing = await placeListing(h, owner.id, { title: 'Boekenkast', categoryIds: [BOOKS], ...NEAR }, 0);
    await waitFor(() => matchedFor(ivo.id, listing._id).length === 1, 'the Premium member alerted');
    // A few head-start passes later still nothing for the standard member.
    await alerts.headStartPass();
    expect(matchedFor(hanna.id, listing._id)).toEqual([]);

    await clock.move(6 * HOUR + 60_000);
    try {
      // Announced at once (the relay is kicked for this very match document: within two seconds, not at its next safety pass).
      await waitFor(() => matchedFor(hanna.id, listing._id).length === 1, 'the standard member alerted when the head start ended', 2_000);
      expect(matchedFor(ivo.id, listing._id)).toHaveLength(1);
    } finally {
      await clock.move(0);
    }
  });
});

describe('match documents', () => {
  // Straight on the store (a collection no relay reads): who wins a listing's pass, and who is left for the next.
  const claims = () => collection<SavedMatchDoc>(h.db, 'saved_matches_claims_test');
  const found = (ids: string[]) =>
    ids.map((userId) => ({
      interest: { userId, place: undefined } as Interest,
      hits: [{ id: `${userId}-s`, name: 'Fietsen', alert: 'direct', createdAt: 0, filters: {} } satisfies BookSearch],
    }));
  const queue = (listingId: string, ids: string[], pass: 'early' | 'open') =>
    queueAlerts({ matched: claims(), logger: silentLogger() }, { ...fromDoc({ _id: listingId } as never), id: listingId, title: 'Fiets', active: true }, found(ids), undefined, Date.now(), pass);
  const alerted = (q: Awaited<ReturnType<typeof queue>>) => q.alerted.map((f) => f.interest.userId);

  it('lets one of two replicas matching a listing at once queue its alerts, in one document with one event', async () => {
    const [a, b] = await Promise.all([queue('claim-1', ['m1', 'm2'], 'early'), queue('claim-1', ['m1', 'm2'], 'early')]);
    expect([alerted(a), alerted(b)].sort()).toEqual([[], ['m1', 'm2']]);
    const doc = await claims().findOne({ _id: 'claim-1:early' });
    expect(doc).toMatchObject({ listingId: 'claim-1', pass: 'early', parts: 1, members: 'm1,m2' });
    const [entry] = Object.values(doc!.outbox ?? {});
    expect((JSON.parse(entry!.packed!) as { payload: SavedSearchMatchedEvent }).payload.matches.map((m) => m.userId)).toEqual(['m1', 'm2']);
  });

  it('leaves out of the open pass whom the early pass alerted, across parts of a thousand', async () => {
    const many = Array.from({ length: 1500 }, (_, i) => `p${i}`);
    expect(alerted(await queue('claim-2', many, 'early'))).toHaveLength(1500);
    expect(await claims().countDocuments({ _id: { $in: ['claim-2:early', 'claim-2:early:1'] } })).toBe(2);
    expect(alerted(await queue('claim-2', many, 'early'))).toEqual([]);
    expect(alerted(await queue('claim-2', [...many, 'late'], 'open'))).toEqual(['late']);
    expect(alerted(await queue('claim-2', [...many, 'late', 'later'], 'open'))).toEqual([]);
  });
});

describe('demand preview', () => {
  it('counts distinct members nearby with a matching saved search or wishlist, 0 and few under three, members only, rate-limited', async () => {
    const CATEGORY = 'saved-test-lampen';
    const asker = await resident({ at: ISLAND });
    const demand = async (query: string, token = asker.token) => call(h.url, `/api/listing/demand?${query}`, { token });
    expect(await body(await demand(`categoryIds=${CATEGORY}`))).toEqual({ members: 0, savedSearches: 0, wishlists: 0, few: true });

    const wanting = [await resident({ at: ISLAND }), await resident({ at: ISLAND_NEAR })];
    for (const member of wanting) expect((await save(member, { name: 'Lampen', filters: { categoryIds: [CATEGORY] }, alert: 'off' })).status).toBe(201);
    // Two: too few to show.
    expect(await body(await demand(`categoryIds=${CATEGORY}`))).toEqual({ members: 0, savedSearches: 0, wishlists: 0, few: true });

    // A third member wishes a lamp listed by someone else (an older listing: past the head start).
    const third = await resident({ at: ISLAND_NEAR });
    const lamp = await placeListing(h, wanting[0]!.id, { title: 'Bureaulamp', categoryIds: [CATEGORY], latitude: ISLAND.latitude, longitude: ISLAND.longitude }, 24);
    await waitFor(async () => (await call(h.url, `/api/wishlist/add/${lamp._id}`, { method: 'POST', token: third.token })).status === 200, 'wishlisted');
    await waitFor(async () => ((await body(await demand(`categoryIds=${CATEGORY}`))) as { members: number }).members === 3, 'three members want lamps');
    expect(await body(await demand(`categoryIds=${CATEGORY}`))).toEqual({ members: 3, savedSearches: 0, wishlists: 0, few: false });
    // Other categories: nobody; a radius that leaves out the members 3 km away: few again.
    expect(await body(await demand('categoryIds=saved-test-nothing'))).toMatchObject({ members: 0, few: true });
    expect(await body(await demand(`categoryIds=${CATEGORY}&distanceKm=1`))).toMatchObject({ members: 0, few: true });
    // Taken off the wishlist: announced, so the count drops within moments, not at the 30-minute reload.
    const other = await resident({ at: ISLAND });
    expect((await call(h.url, `/api/wishlist/delete/${lamp._id}`, { method: 'DELETE', token: third.token })).status).toBe(200);
    await waitFor(async () => ((await body(await demand(`categoryIds=${CATEGORY}`, other.token))) as { few: boolean }).few, 'the removal counted');
    // And put back: counted again (the tombstone revived with the next version).
    expect((await call(h.url, `/api/wishlist/add/${lamp._id}`, { method: 'POST', token: third.token })).status).toBe(200);
    await waitFor(async () => ((await body(await demand(`categoryIds=${CATEGORY}`, other.token))) as { members: number }).members === 3, 'the add counted again');
    // Bad input: Dutch 400; a guest: 401.
    const bad = await demand('distanceKm=-3');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await body(bad))).toContain('Ongeldige afstand');
    expect((await call(h.url, `/api/listing/demand?categoryIds=${CATEGORY}`)).status).toBe(401);

    // 60 a minute per member.
    let limited = 0;
    for (let i = 0; i < 65 && !limited; i++) if ((await demand(`categoryIds=${CATEGORY}`)).status === 429) limited = i;
    expect(limited).toBeGreaterThan(0);
  });
});

function hiddenApplied(a: string, b: string): boolean {
  const search = h.service.workers!.find((w): w is SearchService => 'hiddenFor' in w);
  return !!search?.hiddenFor(a).has(b);
}

