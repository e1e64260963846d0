// The in-memory saved searches and wishlists by place (saved/book.ts) with the matching and demand
// rules on top (findMatches, countDemand): which members a listing or a place reaches, never the
// owner or a blocked member, newer versions only, members who move, and "few" under three.
import { prepareListing, toVec, wantsListing, type ListingState, type Vec3, type Viewer } from '@ruilplein/search';
import { describe, expect, it } from 'vitest';
import { countDemand } from '../src/demand/count.ts';
import { findMatches } from '../src/saved/alerts.ts';
import { compiledOf, InterestBook, type BookSearch } from '../src/saved/book.ts';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const UTRECHT = { latitude: 52.0907, longitude: 5.1214 };
const ZEIST = { latitude: 52.0894, longitude: 5.2337 }; // about 7.7 km east
const GRONINGEN = { latitude: 53.2194, longitude: 6.5665 };

function world(places: Record<string, { latitude: number; longitude: number } | undefined>, categories: Record<string, string[]> = {}) {
  const at = new Map<string, { latitude: number; longitude: number } | undefined>(Object.entries(places));
  const book = new InterestBook(
    (id) => {
      const p = at.get(id);
      return p && toVec(p.latitude, p.longitude);
    },
    (listingId) => categories[listingId],
  );
  const viewerOf = (id: string): Viewer => ({ id, roles: ['Premium'], ...at.get(id) });
  return { book, at, viewerOf };
}
const search = (id: string, filters: BookSearch['filters'] = {}, alert: BookSearch['alert'] = 'direct'): BookSearch => ({ id, name: id, alert, createdAt: 0, filters });
const listing = (over: Partial<ListingState> = {}) =>
  prepareListing({
  id: 'l1',
  version: 1,
  ownerId: 'owner',
  active: true,
  title: 'Kinderfiets',
  excerpt: '',
  listingType: 'item',
  acceptsItems: false,
  isPremium: false,
  initialValue: 40,
  categoryIds: ['fietsen'],
  imageUrl: '',
  thumbnailUrl: '',
  placeholder: '',
  createdAt: NOW - 3600_000,
    ...UTRECHT,
    ...over,
  });
const vec = (p: { latitude: number; longitude: number }): Vec3 => toVec(p.latitude, p.longitude);
const who = (found: ReturnType<typeof findMatches>) => found.map((f) => [f.interest.userId, f.hits.map((h) => h.id)]);

describe('matching a listing', () => {
  it('finds the members whose searches match within their distance, never the owner or the hidden', () => {
    const { book, viewerOf } = world({ anna: UTRECHT, bram: ZEIST, cas: GRONINGEN, owner: UTRECHT, dirk: UTRECHT, nomad: undefined });
    book.setSearches('anna', 1, [search('a1', { categoryIds: ['fietsen'] }), search('a2', { maxValue: 50 }), search('a3', { categoryIds: ['boeken'] })]);
    book.setSearches('bram', 1, [search('b1', { distanceKm: 5 })]); // 7.7 km: too far
    book.setSearches('cas', 1, [search('c1', {})]); // 25 km by default: Groningen is far away
    book.setSearches('owner', 1, [search('o1', {})]);
    book.setSearches('dirk', 1, [search('d1', {})]);
    book.setSearches('nomad', 1, [search('n1', { categoryIds: ['fietsen'] })]); // no place: anywhere
    const l = listing();
    expect(who(findMatches(book, l, viewerOf, new Set(['dirk']), NOW)).sort()).toEqual([
      ['anna', ['a1', 'a2']],
      ['nomad', ['n1']],
    ]);
  });

  it('applies newer versions only and follows a member who moved', () => {
    const { book, at, viewerOf } = world({ anna: GRONINGEN });
    book.setSearches('anna', 2, [search('a1')]);
    expect(book.setSearches('anna', 1, [])).toBe(false);
    expect(findMatches(book, listing(), viewerOf, new Set(), NOW)).toEqual([]);
    at.set('anna', UTRECHT);
    expect(book.refile()).toBe(1);
    expect(who(findMatches(book, listing(), viewerOf, new Set(), NOW))).toEqual([['anna', ['a1']]]);
    // All searches gone and no wishes: the member leaves the book.
    book.setSearches('anna', 3, []);
    expect(book.size).toMatchObject({ members: 0, searches: 0, cells: 0 });
  });
});

describe('the demand preview', () => {
  const query = { categoryIds: ['fietsen'], q: undefined, distanceKm: 10 };
  it('counts distinct members nearby by saved search or wishlist, and answers 0 with few under three', () => {
    const { book } = world({ me: UTRECHT, anna: UTRECHT, bram: ZEIST, cas: GRONINGEN, dirk: ZEIST }, { 'bike-listing': ['fietsen'], 'other-listing': ['boeken'] });
    book.setSearches('anna', 1, [search('a1', { categoryIds: ['fietsen'] }), search('a2', {})]);
    book.setSearches('cas', 1, [search('c1', { categoryIds: ['fietsen'] })]); // too far
    book.addWish('bram', 'bike-listing');
    const count = (hidden = new Set<string>()) => countDemand({ book, at: vec(UTRECHT), caller: 'me', hidden, query });
    expect(count()).toEqual({ members: 0, savedSearches: 0, wishlists: 0, few: true });
    book.addWish('dirk', 'bike-listing');
    book.addWish('dirk', 'other-listing');
    // Three members: two searches (shown as 0: under three), two wishes (0 too).
    expect(count()).toEqual({ members: 3, savedSearches: 0, wishlists: 0, few: false });
    book.setSearches('bram', 1, [search('b1', { categoryIds: ['fietsen', 'boeken'] })]);
    expect(count()).toEqual({ members: 3, savedSearches: 3, wishlists: 0, few: false });
    // A blocked member is not counted; one's own searches never.
    expect(count(new Set(['dirk']))).toMatchObject({ members: 0, few: true });
    book.setSearches('me', 1, [search('m1', {})]);
    expect(count()).toMatchObject({ members: 3 });
    // A wished-for listing that ended (traded or removed) no longer counts.
    book.addWish('anna', 'bike-listing');
    expect(count()).toEqual({ members: 3, savedSearches: 3, wishlists: 3, few: false });
    book.endWishes('bike-listing', ['anna', 'bram', 'dirk']);
    // Dirk's one wish left is for a bookcase: he drops out, and two members are too few.
    expect(count()).toEqual({ members: 0, savedSearches: 0, wishlists: 0, few: true });
    expect(book.size.wishes).toBe(1);
  });

  it('counts a wish with two of the asked categories once', () => {
    const { book } = world({ me: UTRECHT, anna: UTRECHT, bram: UTRECHT, cas: UTRECHT }, { both: ['fietsen', 'boeken'], bike: ['fietsen'] });
    for (const m of ['anna', 'bram', 'cas']) book.addWish(m, 'both');
    book.addWish('anna', 'bike');
    const ask = (categoryIds: string[]) => countDemand({ book, at: vec(UTRECHT), caller: 'me', hidden: new Set(), query: { categoryIds, q: undefined, distanceKm: 10 } });
    expect(ask(['fietsen', 'boeken'])).toEqual({ members: 3, savedSearches: 0, wishlists: 4, few: false });
    expect(ask(['boeken'])).toEqual({ members: 3, savedSearches: 0, wishlists: 3, few: false });
    // The reload replaces a member's wishes, categories and all.
    book.setWishes('anna', []);
    expect(ask(['fietsen'])).toEqual({ members: 0, savedSearches: 0, wishlists: 0, few: true });
  });
});

describe('the demand preview over a random book', () => {
  it('counts what a plain loop over every member counts, through searches, wishes, moves and removals', () => {
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 2246822519) + 0x9e3779b9) >>> 0) / 2 ** 32);
    const cats = ['fietsen', 'boeken', 'tuin', 'muziek'];
    // Searches on words only (no category) are grouped by their words: a listing visits the groups it holds.
    const words = ['fiets', 'boek', 'lamp', 'kinderfiets', 'gitaar'];
    const titles = ['Oude fiets', 'Kinderfiets', 'Stapel boeken', 'Gitaar met hoes', 'Staande lamp'];
    const places: Record<string, { latitude: number; longitude: number }> = {};
    const wishCats: Record<string, string[]> = {};
    for (let i = 0; i < 60; i++) wishCats[`w${i}`] = cats.filter(() => next() < 0.4);
    const spot = () => ({ latitude: 52 + next() * 0.3, longitude: 5 + next() * 0.4 });
    for (let m = 0; m < 300; m++) places[`m${m}`] = spot();
    const { book, at } = world(places, wishCats);
    const searches = new Map<string, BookSearch[]>();
    const wishes = new Map<string, Set<string>>();
    const km = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
      const [u, v] = [vec(a), vec(b)];
      return 2 * 6371.0088 * Math.asin(Math.min(1, Math.hypot(u.x - v.x, u.y - v.y, u.z - v.z) / 2));
    };
    for (let round = 0; round < 6; round++) {
      for (let m = 0; m < 300; m++) {
        const id = `m${m}`;
        const r = next();
        if (r < 0.3) {
          const list = Array.from({ length: Math.floor(next() * 3) }, (_, k) =>
            search(`${id}-${round}-${k}`, {
              categoryIds: cats.filter(() => next() < 0.3),
              ...(next() < 0.5 ? { distanceKm: [5, 10, 25][Math.floor(next() * 3)]! } : {}),
              ...(next() < 0.4 ? { q: words[Math.floor(next() * words.length)]! } : {}),
            }),
          );
          book.setSearches(id, round + 1, list);
          searches.set(id, list);
        } else if (r < 0.6) {
          const w = `w${Math.floor(next() * 60)}`;
          book.addWish(id, w);
          (wishes.get(id) ?? wishes.set(id, new Set()).get(id)!).add(w);
        } else if (r < 0.65) {
          book.setWishes(id, []);
          wishes.delete(id);
        } else if (r < 0.7) {
          at.set(id, (places[id] = spot()));
        }
      }
      book.refile();
      for (let q = 0; q < 20; q++) {
        const here = spot();
        const asked = cats.filter(() => next() < 0.4);
        const distanceKm = [5, 10, 25][Math.floor(next() * 3)]!;
        const said = next() < 0.5 ? titles[Math.floor(next() * titles.length)]! : undefined;
        const asListing = prepareListing({ ...listing().state, title: said ?? '', categoryIds: asked, ...here });
        let members = 0;
        let saved = 0;
        let wished = 0;
        for (let m = 0; m < 300; m++) {
          const id = `m${m}`;
          const d = km(here, places[id]!);
          if (d > distanceKm) continue;
          const s = (searches.get(id) ?? []).filter((x) => d <= (x.filters.distanceKm ?? 25) && wantsListing(compiledOf(x), asListing)).length;
          const w = [...(wishes.get(id) ?? [])].filter((x) => wishCats[x]!.some((c) => asked.includes(c))).length;
          if (s || w) {
            members++;
            saved += s;
            wished += w;
          }
        }
        const expected = members < 3 ? { members: 0, savedSearches: 0, wishlists: 0, few: true } : { members, savedSearches: saved < 3 ? 0 : saved, wishlists: wished < 3 ? 0 : wished, few: false };
        expect(countDemand({ book, at: vec(here), caller: 'nobody', hidden: new Set(), query: { categoryIds: asked, q: said, distanceKm } }), `round ${round} query ${q} (${said})`).toEqual(expected);
      }
    }
  });
});
