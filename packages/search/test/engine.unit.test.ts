import { isPremiumAt, type Category, type Role } from '@ruilplein/contracts';
import { describe, expect, it } from 'vitest';
import { chord2ForKm, EARTH_RADIUS_KM, kmForChord2, roundKm, toVec } from '../src/geo.ts';
import { InterestBook, trendingScore } from '../src/interest.ts';
import { ListingIndex, type ListingState } from '../src/listings.ts';
import { MemberTable, type MemberState } from '../src/members.ts';
import { topK } from '../src/order.ts';
import { HEAD_START_MS, SearchEngine, type SearchFilters } from '../src/query.ts';
import { random } from './random.ts';

const HOUR = 3600_000;
const NOW = Date.parse('2025-06-01T12:00:00Z');
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041 };
const UTRECHT = { latitude: 52.0907, longitude: 5.1214 };

function listing(over: Partial<ListingState> & { id: string }): ListingState {
  return {
    version: 1,
    ownerId: 'owner',
    active: true,
    title: `Titel ${over.id}`,
    excerpt: 'Een beschrijving',
    listingType: 'item',
    acceptsItems: false,
    isPremium: false,
    initialValue: 10,
    categoryIds: ['boeken'],
    imageUrl: `/uploads/listings/${over.id}.webp`,
    thumbnailUrl: `/uploads/listings/${over.id}-t.webp`,
    placeholder: 'data:image/webp;base64,AAAA',
    createdAt: NOW - 48 * HOUR,
    ...AMSTERDAM,
    ...over,
  };
}

function member(over: Partial<MemberState> & { id: string }): MemberState {
  return { version: 1, firstName: 'Jan', lastName: 'Jansen', city: 'Amsterdam', roles: ['Gebruiker'], ...AMSTERDAM, ...over };
}

/** The haversine formula of the listing detail page (the service's test checks its own copy against `toVec`). */
function distanceInKm(from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const a = Math.sin(rad(to.latitude - from.latitude) / 2) ** 2 + Math.cos(rad(from.latitude)) * Math.cos(rad(to.latitude)) * Math.sin(rad(to.longitude - from.longitude) / 2) ** 2;
  return roundKm(2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a))));
}

const filters = (over: Partial<SearchFilters> = {}): SearchFilters => ({ page: 1, take: 50, premium: false, categoryIds: [], ...over });

function setup() {
  const members = new MemberTable(4);
  const index = new ListingIndex(members, 4);
  const interest = new InterestBook();
  return { members, index, interest, engine: new SearchEngine(index, members, interest) };
}

const ids = (engine: SearchEngine, page: { slots: Int32Array }) => [...page.slots].map((s) => engine.index.id(s));

describe('geometry', () => {
  it('gives the haversine distance of the detail page, to the decimal', () => {
    const next = random(1);
    for (let i = 0; i < 2000; i++) {
      const a = { latitude: 50.7 + next() * 3, longitude: 3.3 + next() * 4 };
      const b = { latitude: 50.7 + next() * 3, longitude: 3.3 + next() * 4 };
      const va = toVec(a.latitude, a.longitude);
      const vb = toVec(b.latitude, b.longitude);
      const c2 = (va.x - vb.x) ** 2 + (va.y - vb.y) ** 2 + (va.z - vb.z) ** 2;
      expect(roundKm(kmForChord2(c2))).toBe(distanceInKm(a, b));
    }
    expect(kmForChord2(chord2ForKm(25))).toBeCloseTo(25, 9);
    expect(roundKm(kmForChord2(chord2ForKm(0)))).toBe(0);
  });
});

describe('topK', () => {
  it('answers the first k of the order, best first, like a full sort', () => {
    const next = random(2);
    for (const n of [0, 1, 5, 100, 1000]) {
      const values = Array.from({ length: n }, () => Math.floor(next() * 50));
      const better = (a: number, b: number) => (values[a] !== values[b] ? values[a]! > values[b]! : a < b);
      const sorted = [...values.keys()].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
      for (const k of [1, 3, 15, n, n + 5]) expect([...topK(n, k, better)]).toEqual(sorted.slice(0, k));
    }
  });
});

describe('member table', () => {
  it('applies newer states only, and knows premium by the platform rule (isPremiumAt)', () => {
    const { members } = setup();
    expect(members.apply(member({ id: 'm1', version: 2, firstName: 'Anna' }))).toBe(true);
    expect(members.apply(member({ id: 'm1', version: 1, firstName: 'Oud' }))).toBe(false);
    expect(members.owner(members.find('m1'))).toEqual({ id: 'm1', firstName: 'Anna', lastName: 'Jansen', city: 'Amsterdam' });
    expect(members.apply(member({ id: 'm1', version: 3, firstName: 'Anna', city: undefined }))).toBe(true);
    expect(members.owner(members.find('m1'))).toEqual({ id: 'm1', firstName: 'Anna', lastName: 'Jansen' });

    const cases: { roles: Role[]; subscriptionEndsAt?: Date; deleted?: boolean }[] = [
      { roles: ['Gebruiker'] },
      { roles: ['Premium'] },
      { roles: ['Moderator'] },
      { roles: ['Beheerder'] },
      { roles: ['Gebruiker'], subscriptionEndsAt: new Date(NOW + HOUR) },
      { roles: ['Gebruiker'], subscriptionEndsAt: new Date(NOW - HOUR) },
      { roles: ['Premium'], deleted: true },
    ];
    cases.forEach((c, i) => {
      members.apply(member({ id: `p${i}`, ...c }));
      expect(members.premiumAt(members.find(`p${i}`), NOW), JSON.stringify(c)).toBe(isPremiumAt({ ...c }, NOW));
    });
  });

  it('keeps a deletion against older states, and answers an unknown caller without place or premium', () => {
    const { members } = setup();
    members.apply(member({ id: 'm1', version: 1, roles: ['Premium'] }));
    expect(members.delete('m1', 2)).toBe(true);
    expect(members.apply(member({ id: 'm1', version: 1 }))).toBe(false);
    expect(members.searcher('m1', NOW)).toEqual({ id: 'm1', premium: false });
    expect(members.owner(members.find('m1'))).toEqual({ id: 'm1', firstName: '', lastName: '' });
    expect(members.searcher('nobody', NOW)).toEqual({ id: 'nobody', premium: false });
  });
});

describe('listing index', () => {
  it('applies changes by version: newer ones replace, older and repeated ones change nothing', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'me' }));
    expect(index.apply(listing({ id: 'a', version: 1, title: 'Eerst' }), NOW)).toBe(true);
    expect(index.apply(listing({ id: 'a', version: 1, title: 'Nog eens' }), NOW)).toBe(false);
    expect(index.apply(listing({ id: 'a', version: 3, title: 'Later', ...UTRECHT }), NOW)).toBe(true);
    expect(index.apply(listing({ id: 'a', version: 2, title: 'Tussendoor' }), NOW)).toBe(false);
    expect(index.card(index.find('a')).title).toBe('Later');
    const searcher = engine.searcher('me', NOW);
    // Moved to Utrecht: out of 25 km around Amsterdam, inside 50.
    expect(ids(engine, engine.search(searcher, filters(), NOW))).toEqual([]);
    expect(ids(engine, engine.search(searcher, filters({ distanceKm: 50 }), NOW))).toEqual(['a']);
  });

  it('removes a deleted or inactive listing and keeps its version against late older events', () => {
    const { index } = setup();
    index.apply(listing({ id: 'a', version: 1 }), NOW);
    index.apply(listing({ id: 'b', version: 1 }), NOW);
    expect(index.remove('a', 2, NOW)).toBe(true);
    expect(index.apply(listing({ id: 'a', version: 1 }), NOW)).toBe(false);
    expect(index.has('a')).toBe(false);
    expect(index.apply(listing({ id: 'b', version: 2, active: false }), NOW)).toBe(true);
    expect(index.has('b')).toBe(false);
    expect(index.live).toBe(0);
    // A deletion that arrives before the creation wins too.
    expect(index.remove('c', 2, NOW)).toBe(true);
    expect(index.apply(listing({ id: 'c', version: 1 }), NOW)).toBe(false);
    // Only after a day are the removed rows forgotten.
    expect(index.sweep(NOW - HOUR)).toBe(0);
    expect(index.sweep(NOW + 1)).toBe(3);
    expect(index.version('a')).toBe(0);
  });

  it('keeps the hash table right through many inserts, removals and reuse of rows', () => {
    const { index } = setup();
    const next = random(3);
    const alive = new Map<string, number>();
    for (let round = 0; round < 20_000; round++) {
      const id = `id-${Math.floor(next() * 3000)}`;
      const version = (alive.get(id) ?? index.version(id)) + 1;
      if (next() < 0.3) index.remove(id, version, NOW - 2 * 24 * HOUR);
      else index.apply(listing({ id, version }), NOW);
      alive.set(id, version);
      if (round % 5000 === 4999) index.sweep(NOW);
    }
    for (const [id, version] of alive) {
      const v = index.version(id);
      // A swept row is forgotten (0); every other holds the last version applied.
      expect(v === version || v === 0).toBe(true);
    }
    expect(index.live).toBe([...alive.keys()].filter((id) => index.has(id)).length);
  });

  it('takes more than 32 categories', () => {
    const { index, engine } = setup();
    for (let i = 0; i < 70; i++) index.apply(listing({ id: `l${i}`, categoryIds: [`c${i}`, 'gedeeld'] }), NOW);
    expect(index.words).toBe(3);
    expect(index.categoryIdsOf(index.find('l40')).sort()).toEqual(['c40', 'gedeeld']);
    const page = engine.search(engine.searcher('x', NOW), filters({ categoryIds: ['c5', 'c65'] }), NOW);
    expect(ids(engine, page).sort()).toEqual(['l5', 'l65']);
  });
});

describe('images (snapshots)', () => {
  it('restores tables that answer exactly as the originals, and keep taking changes', () => {
    const { index, engine, members } = setup();
    const next = random(6);
    for (let i = 0; i < 200; i++) members.apply(member({ id: `m${i}`, roles: i % 5 ? ['Gebruiker'] : ['Premium'], latitude: 51.5 + next(), longitude: 4.5 + next() }));
    for (let i = 0; i < 3000; i++) {
      index.apply(listing({ id: `l${i}`, ownerId: `m${i % 200}`, categoryIds: [`c${i % 40}`], createdAt: NOW - i * HOUR, latitude: 51.5 + next(), longitude: 4.5 + next(), title: `Titel ${'é'.repeat(i % 7)} ${i}` }), NOW);
    }
    for (let i = 0; i < 300; i++) index.remove(`l${i * 7}`, 2, NOW);
    index.sweep(NOW + 1);
    const restoredMembers = MemberTable.restore(members.image());
    const restored = ListingIndex.restore(index.image(), restoredMembers);
    const again = new SearchEngine(restored, restoredMembers, new InterestBook());
    const categories = new Map<string, Category>();
    for (const who of ['m0', 'm1', 'm7']) {
      for (const f of [filters(), filters({ distanceKm: 80, categoryIds: ['c3', 'c39'] }), filters({ page: 3, take: 20, minValue: 5 })]) {
        const a = engine.cards(engine.search(engine.searcher(who, NOW), f, NOW), categories);
        const b = again.cards(again.search(again.searcher(who, NOW), f, NOW), categories);
        expect(b).toEqual(a);
        expect(a.length).toBeGreaterThan(0);
      }
    }
    expect(restored.live).toBe(index.live);
    expect(restored.version('l7')).toBe(0);
    expect(restored.version('l8')).toBe(1);
    // Still a working table: updates, removals, new rows.
    expect(restored.apply(listing({ id: 'l8', version: 2, title: 'Nieuw' }), NOW)).toBe(true);
    expect(restored.card(restored.find('l8')).title).toBe('Nieuw');
    expect(restored.apply(listing({ id: 'fresh', ownerId: 'm3' }), NOW)).toBe(true);
    expect(restored.remove('l9', 5, NOW)).toBe(true);
    expect(restored.has('l9')).toBe(false);
    expect(restoredMembers.apply(member({ id: 'm3', version: 2, firstName: 'Nieuw' }))).toBe(true);
  });
});

describe('search', () => {
  const categories = new Map<string, Category>([
    ['boeken', { id: 'boeken', name: 'Boeken & tijdschriften', icon: 'book-open', isPremium: false }],
    ['vinyl', { id: 'vinyl', name: 'Vinyl & platenspelers', icon: 'disc-3', isPremium: true }],
  ]);

  it('answers cards: owner, categories, value in euro, distance with one decimal', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'me' }));
    members.apply(member({ id: 'owner', firstName: 'Piet', lastName: 'Pietersen', city: 'Utrecht', ...UTRECHT }));
    index.apply(listing({ id: 'a', initialValue: 12.5, categoryIds: ['boeken', 'vinyl', 'onbekend'], ...UTRECHT, createdAt: '2025-05-01T10:00:00.000Z' }), NOW);
    const [card] = engine.cards(engine.search(engine.searcher('me', NOW), filters({ distanceKm: 100 }), NOW), categories);
    expect(card).toEqual({
      id: 'a',
      title: 'Titel a',
      description: 'Een beschrijving',
      imageUrl: '/uploads/listings/a.webp',
      thumbnailUrl: '/uploads/listings/a-t.webp',
      placeholder: 'data:image/webp;base64,AAAA',
      listingType: 'item',
      acceptsItems: false,
      isPremium: false,
      initialValue: 12.5,
      createdAt: '2025-05-01T10:00:00.000Z',
      isActive: true,
      listingCategories: [categories.get('boeken'), categories.get('vinyl')],
      distanceInKm: distanceInKm(AMSTERDAM, UTRECHT),
      user: { id: 'owner', firstName: 'Piet', lastName: 'Pietersen', city: 'Utrecht' },
    });
  });

  it('without a place of its own: no distance filter, distance null, listings without a place included', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'me', latitude: undefined, longitude: undefined }));
    index.apply(listing({ id: 'far', latitude: 53.2, longitude: 6.56 }), NOW);
    index.apply(listing({ id: 'nowhere', latitude: undefined, longitude: undefined, createdAt: NOW - 50 * HOUR }), NOW);
    const page = engine.search(engine.searcher('me', NOW), filters({ distanceKm: 1 }), NOW);
    expect(ids(engine, page)).toEqual(['far', 'nowhere']);
    expect(engine.cards(page, categories).map((c) => c.distanceInKm)).toEqual([null, null]);
    // With a place, a listing without one is never within a distance.
    members.apply(member({ id: 'me', version: 2 }));
    expect(ids(engine, engine.search(engine.searcher('me', NOW), filters({ distanceKm: 500 }), NOW))).toEqual(['far']);
  });

  it('filters value (no value passes unless a minimum above 0), premium, categories, kind and barter mode', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'prem', roles: ['Premium'] }));
    index.apply(listing({ id: 'cheap', initialValue: 5 }), NOW);
    index.apply(listing({ id: 'dear', initialValue: 500 }), NOW);
    index.apply(listing({ id: 'none', initialValue: null }), NOW);
    index.apply(listing({ id: 'prem-only', isPremium: true, initialValue: 50, categoryIds: ['vinyl'] }), NOW);
    index.apply(listing({ id: 'svc', listingType: 'service', acceptsItems: false, initialValue: 20 }), NOW);
    index.apply(listing({ id: 'svc-items', listingType: 'service', acceptsItems: true, initialValue: 20 }), NOW);
    const s = engine.searcher('prem', NOW);
    const find = (f: Partial<SearchFilters>) => ids(engine, engine.search(s, filters(f), NOW)).sort();
    expect(find({})).toEqual(['cheap', 'dear', 'none', 'prem-only', 'svc', 'svc-items']);
    expect(find({ minValue: 0, maxValue: 100 })).toEqual(['cheap', 'none', 'prem-only', 'svc', 'svc-items']);
    expect(find({ minValue: 10 })).toEqual(['dear', 'prem-only', 'svc', 'svc-items']);
    expect(find({ minValue: 5, maxValue: 5 })).toEqual(['cheap']);
    expect(find({ maxValue: 4.99 })).toEqual(['none']);
    expect(find({ premium: true })).toEqual(['prem-only']);
    expect(find({ categoryIds: ['vinyl', 'onbekend'] })).toEqual(['prem-only']);
    expect(find({ categoryIds: ['onbekend'] })).toEqual([]);
    expect(find({ listingType: 'service' })).toEqual(['svc', 'svc-items']);
    expect(find({ listingType: 'item' })).toEqual(['cheap', 'dear', 'none', 'prem-only']);
    expect(find({ barterMode: 'all' })).toEqual(find({}));
    expect(find({ listingType: 'service', barterMode: 'services_only' })).toEqual(['svc']);
    expect(find({ barterMode: 'services_or_items' })).toEqual(['svc-items']);
    expect(find({ listingType: 'item', barterMode: 'services_only' })).toEqual([]);
  });

  it('shows premium-only and new listings to premium members and their owner only', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'plain' }));
    members.apply(member({ id: 'subscriber', subscriptionEndsAt: new Date(NOW + 24 * HOUR) }));
    members.apply(member({ id: 'lapsed', subscriptionEndsAt: new Date(NOW - HOUR) }));
    members.apply(member({ id: 'admin', roles: ['Moderator'] }));
    members.apply(member({ id: 'owner' }));
    index.apply(listing({ id: 'old' }), NOW);
    index.apply(listing({ id: 'premium', isPremium: true }), NOW);
    index.apply(listing({ id: 'new', createdAt: NOW - HEAD_START_MS + 60_000 }), NOW);
    index.apply(listing({ id: 'six-hours', createdAt: NOW - HEAD_START_MS }), NOW);
    const seen = (who: string) => ids(engine, engine.search(engine.searcher(who, NOW), filters(), NOW)).sort();
    expect(seen('plain')).toEqual(['old', 'six-hours']);
    expect(seen('lapsed')).toEqual(['old', 'six-hours']);
    expect(seen('owner')).toEqual(['new', 'old', 'premium', 'six-hours']);
    for (const who of ['subscriber', 'admin']) expect(seen(who)).toEqual(['new', 'old', 'premium', 'six-hours']);
    expect(ids(engine, engine.search(engine.searcher('plain', NOW), filters({ premium: true }), NOW))).toEqual([]);
  });

  it('orders newest first with a stable tie-break: pages join up without repeats or gaps', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'me', roles: ['Premium'] }));
    const next = random(4);
    for (let i = 0; i < 500; i++) {
      // Many equal creation times, so the tie-break decides often.
      index.apply(listing({ id: `l${i}`, createdAt: NOW - 10 * HOUR - Math.floor(next() * 20) * HOUR, latitude: 52.3 + next() * 0.1, longitude: 4.85 + next() * 0.1 }), NOW);
    }
    const s = engine.searcher('me', NOW);
    const all = ids(engine, engine.search(s, filters({ take: 50, page: 1, distanceKm: 500 }), NOW));
    const pages: string[] = [];
    for (let page = 1; page <= 40; page++) pages.push(...ids(engine, engine.search(s, filters({ take: 15, page }), NOW)));
    expect(pages.length).toBe(500);
    expect(new Set(pages).size).toBe(500);
    expect(pages.slice(0, 50)).toEqual(all);
    const created = pages.map((id) => index.created[index.find(id)]!);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(ids(engine, engine.search(s, filters({ take: 15, page: 34 }), NOW)).length).toBe(5);
    expect(ids(engine, engine.search(s, filters({ take: 15, page: 35 }), NOW))).toEqual([]);
  });

  it('agrees with a plain filter-and-sort over random listings and queries', () => {
    const { index, engine, members } = setup();
    const next = random(5);
    const states: ListingState[] = [];
    const cats = ['boeken', 'vinyl', 'fietsen', 'tuin', 'kleding'];
    for (let i = 0; i < 40; i++) members.apply(member({ id: `m${i}`, roles: next() < 0.2 ? ['Premium'] : ['Gebruiker'], latitude: 51 + next() * 2.4, longitude: 3.6 + next() * 3.3 }));
    for (let i = 0; i < 4000; i++) {
      const state = listing({
        id: `x${i}`,
        ownerId: `m${Math.floor(next() * 40)}`,
        listingType: next() < 0.3 ? 'service' : 'item',
        isPremium: next() < 0.1,
        initialValue: next() < 0.2 ? null : Math.round(next() * 100_000) / 100,
        categoryIds: cats.filter(() => next() < 0.3),
        createdAt: NOW - Math.floor(next() * 24 * 40) * HOUR,
        latitude: 51 + next() * 2.4,
        longitude: 3.6 + next() * 3.3,
      });
      state.acceptsItems = state.listingType === 'service' && next() < 0.5;
      states.push(state);
      index.apply(state, NOW);
    }
    let answered = 0;
    for (let q = 0; q < 150; q++) {
      const who = `m${Math.floor(next() * 40)}`;
      const f = filters({
        distanceKm: next() < 0.2 ? undefined : 1 + next() * 120,
        minValue: next() < 0.5 ? undefined : Math.floor(next() * 300),
        maxValue: next() < 0.5 ? undefined : 300 + Math.floor(next() * 700),
        premium: next() < 0.15,
        categoryIds: cats.filter(() => next() < 0.2),
        listingType: next() < 0.6 ? undefined : next() < 0.5 ? 'item' : 'service',
        barterMode: (['all', 'services_only', 'services_or_items', undefined] as const)[Math.floor(next() * 4)],
        take: 1 + Math.floor(next() * 50),
        page: 1 + Math.floor(next() * 3),
      });
      const me = members.searcher(who, NOW);
      const meState = { premium: members.premiumAt(members.find(who), NOW) };
      const radius = f.distanceKm ?? 25;
      const expected = states
        .filter((l) => {
          if (me.place) {
            const v = toVec(l.latitude!, l.longitude!);
            const c2 = (v.x - me.place.x) ** 2 + (v.y - me.place.y) ** 2 + (v.z - me.place.z) ** 2;
            if (kmForChord2(c2) > radius + 1e-9) return false;
          }
          if (l.initialValue === null ? (f.minValue ?? 0) > 0 : (f.minValue !== undefined && l.initialValue < f.minValue) || (f.maxValue !== undefined && l.initialValue > f.maxValue)) return false;
          if (f.premium && !l.isPremium) return false;
          if (f.categoryIds.length && !l.categoryIds.some((c) => f.categoryIds.includes(c))) return false;
          if (f.listingType && l.listingType !== f.listingType) return false;
          if (f.barterMode === 'services_only' && (l.listingType !== 'service' || l.acceptsItems)) return false;
          if (f.barterMode === 'services_or_items' && (l.listingType !== 'service' || !l.acceptsItems)) return false;
          const own = l.ownerId === who;
          if (!own && !meState.premium && (l.isPremium || Number(l.createdAt) > NOW - HEAD_START_MS)) return false;
          return true;
        })
        .sort((a, b) => Number(b.createdAt) - Number(a.createdAt) || index.keys[index.find(b.id)]! - index.keys[index.find(a.id)]!)
        .slice((f.page - 1) * f.take, f.page * f.take)
        .map((l) => l.id);
      expect(ids(engine, engine.search(me, f, NOW)), JSON.stringify(f)).toEqual(expected);
      if (expected.length) answered++;
    }
    // The queries are not all empty ones.
    expect(answered).toBeGreaterThan(60);
  });
});

describe('recommendations', () => {
  it('within the radius, not one’s own: premium first, then recent interest, then newness', () => {
    const { index, engine, members, interest } = setup();
    members.apply(member({ id: 'me', roles: ['Premium'] }));
    members.apply(member({ id: 'owner' }));
    members.apply(member({ id: 'prem-owner', roles: ['Premium'] }));
    index.apply(listing({ id: 'mine', ownerId: 'me' }), NOW);
    index.apply(listing({ id: 'old-liked', createdAt: NOW - 20 * 24 * HOUR }), NOW);
    index.apply(listing({ id: 'fresh', createdAt: NOW - 7 * HOUR }), NOW);
    index.apply(listing({ id: 'stale', createdAt: NOW - 30 * 24 * HOUR }), NOW);
    index.apply(listing({ id: 'premium', isPremium: true, createdAt: NOW - 30 * 24 * HOUR }), NOW);
    index.apply(listing({ id: 'of-premium', ownerId: 'prem-owner', createdAt: NOW - 31 * 24 * HOUR }), NOW);
    index.apply(listing({ id: 'far', ...UTRECHT }), NOW);
    const liked = index.find('old-liked');
    interest.record(liked, 'a', 'wishlist', NOW - HOUR, NOW);
    interest.record(liked, 'b', 'wishlist', NOW - 2 * HOUR, NOW);
    // The same member twice counts once; one older than 14 days not at all.
    interest.record(liked, 'b', 'wishlist', NOW - 3 * HOUR, NOW);
    interest.record(index.find('stale'), 'c', 'wishlist', NOW - 15 * 24 * HOUR, NOW);
    expect(interest.interest(liked, NOW)).toBeCloseTo(0.5 ** (1 / 72) + 0.5 ** (2 / 72), 9);
    expect(trendingScore(0, 0)).toBe(1);

    const s = engine.searcher('me', NOW);
    expect(ids(engine, engine.recommendations(s, 5, 1, NOW))).toEqual(['premium', 'of-premium', 'old-liked', 'fresh', 'stale']);
    expect(ids(engine, engine.recommendations(s, 25, 1, NOW))).not.toContain('mine');
    // Six a page.
    for (let i = 0; i < 10; i++) index.apply(listing({ id: `more${i}`, createdAt: NOW - (40 + i) * 24 * HOUR }), NOW);
    const first = ids(engine, engine.recommendations(s, 5, 1, NOW));
    const second = ids(engine, engine.recommendations(s, 5, 2, NOW));
    const third = ids(engine, engine.recommendations(s, 5, 3, NOW));
    expect([first.length, second.length, third.length]).toEqual([6, 6, 3]);
    expect(new Set([...first, ...second, ...third]).size).toBe(15);
  });

  it('answers nothing to a member without a place, and hides what a non-premium member may not see', () => {
    const { index, engine, members } = setup();
    members.apply(member({ id: 'homeless', latitude: undefined, longitude: undefined }));
    members.apply(member({ id: 'plain' }));
    index.apply(listing({ id: 'ok' }), NOW);
    index.apply(listing({ id: 'premium', isPremium: true }), NOW);
    index.apply(listing({ id: 'new', createdAt: NOW - HOUR }), NOW);
    expect(ids(engine, engine.recommendations(engine.searcher('homeless', NOW), 25, 1, NOW))).toEqual([]);
    expect(ids(engine, engine.recommendations(engine.searcher('plain', NOW), 25, 1, NOW))).toEqual(['ok']);
  });
});
