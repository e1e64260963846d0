// `matches` (one listing, one search) against the engine (the index scan): on random worlds of
// members and listings and random searches, the engine finds exactly the listings `matches` accepts,
// in its order (newest first, then the per-id tie-break), and recommendations keep to the same rules.
import { BARTER_MODES, isPremiumAt, RECOMMENDATION_PAGE_SIZE, ROLES, type Role } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { kmForChord2, toVec } from '../src/geo.ts';
import { InterestBook, trendingScore } from '../src/interest.ts';
import { ListingIndex, type ListingState } from '../src/listings.ts';
// The package's entry: saved-search alerts will import the predicate from there.
import { matches, type MatchFilters, type Viewer } from '../src/index.ts';
import { MemberTable, type MemberState } from '../src/members.ts';
import { HEAD_START_MS, SearchEngine, type SearchFilters } from '../src/query.ts';
import { hashId } from '../src/slots.ts';
import { random } from './random.ts';

const HOUR = 3600_000;
const NOW = Date.parse('2025-06-01T12:00:00Z');
const CATEGORIES = ['boeken', 'vinyl', 'fietsen', 'tuin', 'kleding', 'lessen'];

interface World {
  members: MemberTable;
  index: ListingIndex;
  interest: InterestBook;
  engine: SearchEngine;
  /** Every member's last state, by id. */
  people: Map<string, MemberState>;
  /** Every listing's last state (removed ones inactive), by id. */
  listings: Map<string, ListingState>;
}

/** Members and listings in one region (so distances matter), with every edge the rules have. */
function world(seed: number): World {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const members = new MemberTable(4);
  const index = new ListingIndex(members, 4);
  const interest = new InterestBook();
  const people = new Map<string, MemberState>();
  const listings = new Map<string, ListingState>();
  const place = () => ({ latitude: 51.8 + next() * 0.8, longitude: 4.6 + next() * 1.2 });
  const memberCount = 12 + Math.floor(next() * 20);
  for (let i = 0; i < memberCount; i++) {
    const roles: Role[] = next() < 0.7 ? ['Gebruiker'] : [pick(ROLES)];
    const ends = next();
    const state: MemberState = {
      id: `m${i}`,
      version: 1,
      firstName: 'Lid',
      lastName: `${i}`,
      roles,
      // A paid period that runs, has ended, or ends exactly now (ended).
      ...(ends < 0.15 && { subscriptionEndsAt: new Date(NOW + HOUR) }),
      ...(ends >= 0.15 && ends < 0.25 && { subscriptionEndsAt: new Date(NOW - HOUR) }),
      ...(ends >= 0.25 && ends < 0.3 && { subscriptionEndsAt: new Date(NOW).toISOString() }),
      ...(next() < 0.85 && place()),
    };
    members.apply(state);
    people.set(state.id, state);
  }
  // A few deleted accounts (their listings stay until the listing events say otherwise).
  for (const state of [...people.values()].filter(() => next() < 0.08)) {
    members.delete(state.id, 2);
    // The tombstone keeps the old fields: the rules must read `deleted` (no rights, no place).
    people.set(state.id, { ...state, version: 2, deleted: true });
  }
  const owners = [...people.keys(), 'stranger'];
  const listingCount = 50 + Math.floor(next() * 350);
  for (let i = 0; i < listingCount; i++) {
    const service = next() < 0.35;
    // Ages around the head start's edge, exactly on it, and far older; some share a time.
    const age = pick([0, 1, 5.99, 6, 6.01, 7, 24, 24, 200, 1000].map((h) => h * HOUR));
    const value = next();
    const state: ListingState = {
      id: `l${i}`,
      version: 1,
      ownerId: pick(owners),
      active: next() > 0.05,
      title: `Titel ${i}`,
      excerpt: '',
      listingType: service ? 'service' : 'item',
      acceptsItems: service && next() < 0.5,
      isPremium: next() < 0.15,
      initialValue: value < 0.2 ? null : value < 0.3 ? pick([0, 5, 10, 99.99, 100]) : Math.round(next() * 50_000) / 100,
      categoryIds: CATEGORIES.filter(() => next() < 0.25),
      imageUrl: '',
      thumbnailUrl: '',
      placeholder: '',
      createdAt: next() < 0.5 ? NOW - age : new Date(NOW - age).toISOString(),
      ...(next() < 0.9 && place()),
    };
    index.apply(state, NOW);
    listings.set(state.id, state);
  }
  // Later states: moved, repriced, switched off, deleted; and a late older state that must change nothing.
  for (const state of [...listings.values()].filter(() => next() < 0.2)) {
    const roll = next();
    if (roll < 0.25) {
      index.remove(state.id, 2, NOW);
      listings.set(state.id, { ...state, version: 2, active: false });
    } else {
      const later: ListingState = { ...state, version: 2, ...(roll < 0.5 ? place() : { initialValue: Math.round(next() * 1000) }), active: roll < 0.9 };
      index.apply(later, NOW);
      listings.set(state.id, later);
    }
    index.apply({ ...state, version: 1, title: 'te laat' }, NOW);
  }
  return { members, index, interest, engine: new SearchEngine(index, members, interest), people, listings };
}

/** Random filters as GET /api/listing's schema lets them through (and owners left out). */
function filtersFor(next: () => number, w: World): MatchFilters {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const value = () => pick([0, 5, 10, 50, 99.99, 100, 250, Math.round(next() * 50_000) / 100]);
  let minValue = next() < 0.5 ? undefined : value();
  let maxValue = next() < 0.5 ? undefined : value();
  if (minValue !== undefined && maxValue !== undefined && minValue > maxValue) [minValue, maxValue] = [maxValue, minValue];
  const owners = [...new Set([...w.listings.values()].map((l) => l.ownerId))];
  return {
    distanceKm: next() < 0.25 ? undefined : pick([1, 5, 10, 25, 40, 500, 0.5 + next() * 60]),
    minValue,
    maxValue,
    premium: next() < 0.15,
    categoryIds: next() < 0.5 ? [] : [...CATEGORIES, 'onbekend'].filter(() => next() < 0.3),
    listingType: next() < 0.6 ? undefined : pick(['item', 'service'] as const),
    barterMode: next() < 0.4 ? undefined : pick(BARTER_MODES),
    ...(next() < 0.3 && { excludeOwners: new Set([...owners.filter(() => next() < 0.3), 'nobody']) }),
  };
}

/** The viewer `matches` takes: the member's state as the table holds it, or a stranger's. */
const viewerOf = (w: World, id: string): Viewer => w.people.get(id) ?? { id, roles: [] };

const createdOf = (l: ListingState) => new Date(l.createdAt).getTime();

/** Whether `a` may come before `b` in a search: newer, or as new with the greater id hash, then id. */
function searchOrderHolds(a: ListingState, b: ListingState): boolean {
  const ca = createdOf(a);
  const cb = createdOf(b);
  if (ca !== cb) return ca > cb;
  const ka = hashId(a.id);
  const kb = hashId(b.id);
  return ka !== kb ? ka > kb : a.id > b.id;
}

describe('matches against the engine', () => {
  it('finds the same listings in the engine’s order, for random worlds, viewers, filters and times', () => {
    let nonEmpty = 0;
    let queries = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const w = world(seed);
      const next = random(seed * 7919);
      const ids = [...w.people.keys(), 'stranger', 'onbekend'];
      for (let q = 0; q < 60; q++) {
        const who = ids[Math.floor(next() * ids.length)]!;
        // The platform's clock moved on: new listings stop being new, paid periods end.
        const now = NOW + [0, 0, HOUR, 7 * HOUR][Math.floor(next() * 4)]!;
        const f = filtersFor(next, w);
        const viewer = viewerOf(w, who);
        const expected = [...w.listings.values()].filter((l) => matches(f, l, viewer, now));
        const searcher = w.engine.searcher(who, now);
        const all = [...w.engine.search(searcher, { ...f, page: 1, take: 100_000 }, now).slots].map((s) => w.index.id(s));
        const context = JSON.stringify({ seed, q, who, now, f: { ...f, excludeOwners: f.excludeOwners && [...f.excludeOwners] } });
        expect([...all].sort(), context).toEqual(expected.map((l) => l.id).sort());
        for (let i = 1; i < all.length; i++) expect(searchOrderHolds(w.listings.get(all[i - 1]!)!, w.listings.get(all[i]!)!), context).toBe(true);
        // Any page is its slice of that order.
        const take = 1 + Math.floor(next() * 20);
        const page = 1 + Math.floor(next() * 4);
        const slice = [...w.engine.search(searcher, { ...f, page, take } as SearchFilters, now).slots].map((s) => w.index.id(s));
        expect(slice, context).toEqual(all.slice((page - 1) * take, page * take));
        queries++;
        if (all.length) nonEmpty++;
      }
    }
    // The worlds and searches are not mostly empty ones.
    expect(nonEmpty).toBeGreaterThan(queries / 2);
  });

  it('recommends what matches within the radius, never one’s own, premium first and then by trending score', () => {
    let nonEmpty = 0;
    for (let seed = 100; seed < 130; seed++) {
      const w = world(seed);
      const next = random(seed * 104_729);
      const live = [...w.listings.values()].filter((l) => l.active);
      // Some interest, so the score differs from newness alone.
      for (const l of live.filter(() => next() < 0.2)) w.interest.record(w.index.find(l.id), `fan${Math.floor(next() * 5)}`, next() < 0.5 ? 'wishlist' : 'offer', NOW - next() * 10 * 24 * HOUR, NOW);
      for (const who of w.people.keys()) {
        const viewer = viewerOf(w, who);
        const radiusKm = [1, 5, 10, 25][Math.floor(next() * 4)]!;
        const excludeOwners = next() < 0.3 ? new Set([...w.people.keys()].filter(() => next() < 0.3)) : undefined;
        const searcher = w.engine.searcher(who, NOW);
        const got: string[] = [];
        for (let page = 1; ; page++) {
          const ids = [...w.engine.recommendations(searcher, radiusKm, page, NOW, excludeOwners).slots].map((s) => w.index.id(s));
          got.push(...ids);
          if (ids.length < RECOMMENDATION_PAGE_SIZE) break;
        }
        const hasPlace = !viewer.deleted && typeof viewer.latitude === 'number';
        const expected = hasPlace ? live.filter((l) => l.ownerId !== who && matches({ distanceKm: radiusKm, premium: false, categoryIds: [], ...(excludeOwners && { excludeOwners }) }, l, viewer, NOW)) : [];
        const context = JSON.stringify({ seed, who, radiusKm });
        expect([...got].sort(), context).toEqual(expected.map((l) => l.id).sort());
        const tier = (l: ListingState) => (l.isPremium || isPremiumAt(viewerOf(w, l.ownerId), NOW) ? 1 : 0);
        const score = (l: ListingState) => trendingScore(w.interest.interest(w.index.find(l.id), NOW), NOW - createdOf(l));
        for (let i = 1; i < got.length; i++) {
          const a = w.listings.get(got[i - 1]!)!;
          const b = w.listings.get(got[i]!)!;
          expect(tier(a) > tier(b) || (tier(a) === tier(b) && (score(a) > score(b) || (score(a) === score(b) && searchOrderHolds(a, b)))), context).toBe(true);
        }
        if (got.length) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });
});

describe('matches', () => {
  const me: Viewer = { id: 'me', roles: ['Gebruiker'], latitude: 52.3676, longitude: 4.9041 };
  const listing = (over: Partial<ListingState> = {}): ListingState => ({
    id: 'l',
    version: 1,
    ownerId: 'owner',
    active: true,
    title: 'Boekenkast',
    excerpt: '',
    listingType: 'item',
    acceptsItems: false,
    isPremium: false,
    initialValue: 40,
    categoryIds: ['meubels'],
    imageUrl: '',
    thumbnailUrl: '',
    placeholder: '',
    createdAt: NOW - 24 * HOUR,
    latitude: 52.37,
    longitude: 4.91,
    ...over,
  });
  const any: MatchFilters = { premium: false, categoryIds: [] };

  it('keeps a new listing from a standard member for six hours on the given clock; Premium, admins and the owner see it at once', () => {
    const fresh = listing({ createdAt: new Date(NOW - HOUR) });
    expect(matches(any, fresh, me, NOW)).toBe(false);
    expect(matches(any, fresh, me, NOW + 5 * HOUR - 1)).toBe(false);
    expect(matches(any, fresh, me, new Date(NOW + 5 * HOUR))).toBe(true);
    expect(matches(any, fresh, { ...me, roles: ['Premium'] }, NOW)).toBe(true);
    expect(matches(any, fresh, { ...me, roles: ['Moderator'] }, NOW)).toBe(true);
    expect(matches(any, fresh, { ...me, subscriptionEndsAt: new Date(NOW + HOUR) }, NOW)).toBe(true);
    expect(matches(any, fresh, { ...me, subscriptionEndsAt: new Date(NOW + HOUR) }, NOW + HOUR)).toBe(false);
    expect(matches(any, fresh, { ...me, id: 'owner' }, NOW)).toBe(true);
    expect(matches(any, listing({ createdAt: NOW - HEAD_START_MS }), me, NOW)).toBe(true);
  });

  it('leaves out premium-only listings for standard members, inactive listings and excluded owners for everyone', () => {
    expect(matches(any, listing({ isPremium: true }), me, NOW)).toBe(false);
    expect(matches({ ...any, premium: true }, listing({ isPremium: true }), { ...me, roles: ['Premium'] }, NOW)).toBe(true);
    expect(matches({ ...any, premium: true }, listing(), { ...me, roles: ['Premium'] }, NOW)).toBe(false);
    expect(matches(any, listing({ active: false }), { ...me, id: 'owner' }, NOW)).toBe(false);
    expect(matches({ ...any, excludeOwners: new Set(['owner']) }, listing(), { ...me, roles: ['Premium'] }, NOW)).toBe(false);
    expect(matches({ ...any, excludeOwners: new Set(['someone']) }, listing(), me, NOW)).toBe(true);
  });

  it('measures distance from one’s own place (25 km unless asked), and without a place not at all', () => {
    const utrecht = listing({ latitude: 52.0907, longitude: 5.1214 });
    const km = kmForChord2((() => {
      const a = toVec(me.latitude!, me.longitude!);
      const b = toVec(52.0907, 5.1214);
      return (a.x - b.x) ** 2 + (a.y - b.y) ** 2 + (a.z - b.z) ** 2;
    })());
    expect(km).toBeGreaterThan(34);
    expect(matches(any, utrecht, me, NOW)).toBe(false);
    expect(matches({ ...any, distanceKm: 35 }, utrecht, me, NOW)).toBe(true);
    expect(matches({ ...any, distanceKm: 35 }, listing({ latitude: undefined, longitude: undefined }), me, NOW)).toBe(false);
    const homeless = { id: 'me', roles: [] };
    expect(matches({ ...any, distanceKm: 1 }, utrecht, homeless, NOW)).toBe(true);
    expect(matches(any, listing({ latitude: undefined, longitude: undefined }), homeless, NOW)).toBe(true);
  });

  it('filters value in whole cents (no value passes unless the minimum is above 0), categories, kind and barter mode', () => {
    expect(matches({ ...any, minValue: 40, maxValue: 40 }, listing(), me, NOW)).toBe(true);
    expect(matches({ ...any, minValue: 40.01 }, listing(), me, NOW)).toBe(false);
    expect(matches({ ...any, minValue: 0, maxValue: 1 }, listing({ initialValue: null }), me, NOW)).toBe(true);
    expect(matches({ ...any, minValue: 0.01 }, listing({ initialValue: null }), me, NOW)).toBe(false);
    expect(matches({ ...any, categoryIds: ['fietsen', 'meubels'] }, listing(), me, NOW)).toBe(true);
    expect(matches({ ...any, categoryIds: ['fietsen'] }, listing(), me, NOW)).toBe(false);
    expect(matches({ ...any, listingType: 'service' }, listing(), me, NOW)).toBe(false);
    const service = listing({ listingType: 'service', acceptsItems: true });
    expect(matches({ ...any, barterMode: 'services_or_items' }, service, me, NOW)).toBe(true);
    expect(matches({ ...any, barterMode: 'services_only' }, service, me, NOW)).toBe(false);
    expect(matches({ ...any, barterMode: 'all' }, listing(), me, NOW)).toBe(true);
  });
});

describe('owners left out', () => {
  it('drops their listings from search and recommendations, whoever asks; unknown ids change nothing', () => {
    const members = new MemberTable();
    const index = new ListingIndex(members);
    const engine = new SearchEngine(index, members, new InterestBook());
    const amsterdam = { latitude: 52.3676, longitude: 4.9041 };
    for (const id of ['me', 'a', 'b']) members.apply({ id, version: 1, firstName: 'Lid', lastName: id, roles: ['Premium'], ...amsterdam });
    const base = { version: 1, active: true, title: '', excerpt: '', listingType: 'item', acceptsItems: false, isPremium: false, initialValue: 1, categoryIds: [], imageUrl: '', thumbnailUrl: '', placeholder: '', createdAt: NOW - 24 * HOUR, ...amsterdam } as const;
    for (const [id, ownerId] of [['a1', 'a'], ['a2', 'a'], ['b1', 'b'], ['mine', 'me']] as const) index.apply({ ...base, id, ownerId, categoryIds: [] }, NOW);
    const s = engine.searcher('me', NOW);
    const search = (excludeOwners?: ReadonlySet<string>) => [...engine.search(s, { page: 1, take: 50, premium: false, categoryIds: [], ...(excludeOwners && { excludeOwners }) }, NOW).slots].map((x) => index.id(x)).sort();
    const recommend = (excludeOwners?: ReadonlySet<string>) => [...engine.recommendations(s, 5, 1, NOW, excludeOwners).slots].map((x) => index.id(x)).sort();
    expect(search()).toEqual(['a1', 'a2', 'b1', 'mine']);
    expect(search(new Set(['a']))).toEqual(['b1', 'mine']);
    expect(search(new Set(['a', 'b', 'nobody']))).toEqual(['mine']);
    expect(search(new Set(['nobody']))).toEqual(['a1', 'a2', 'b1', 'mine']);
    expect(recommend()).toEqual(['a1', 'a2', 'b1']);
    expect(recommend(new Set(['b']))).toEqual(['a1', 'a2']);
  });
});
