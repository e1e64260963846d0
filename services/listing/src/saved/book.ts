import { SEARCH_DEFAULT_DISTANCE_KM, type SavedSearchAlert, type SavedSearchFilters } from '@ruilplein/contracts';
import { compileFilters, kmForChord2, toVec, type CompiledFilters, type MatchFilters, type QueryWord, type Vec3 } from '@ruilplein/search';

/** A saved search as the matcher holds it. */
export interface BookSearch {
  id: string;
  name: string;
  alert: SavedSearchAlert;
  createdAt: number;
  filters: SavedSearchFilters;
  /** Its filters prepared for matching: set by the book when filed. */
  compiled?: CompiledFilters;
}

/** The filters as `matches` takes them. */
export const matchFiltersOf = (s: BookSearch): MatchFilters => ({
  distanceKm: s.filters.distanceKm,
  minValue: s.filters.minValue,
  maxValue: s.filters.maxValue,
  listingType: s.filters.listingType,
  premium: s.filters.premium ?? false,
  categoryIds: s.filters.categoryIds ?? [],
  ...(s.filters.q ? { q: s.filters.q } : {}),
});

/** A filed search's prepared filters (compiled on first use when it was made elsewhere). */
export const compiledOf = (s: BookSearch): CompiledFilters => (s.compiled ??= compileFilters(matchFiltersOf(s)));

/** A member who wants something: their saved searches and wishlisted listings, filed under their place's cell. */
export interface Interest {
  userId: string;
  version: number;
  searches: BookSearch[];
  /** Wishlisted listings with their categories when wished for (the demand preview counts by category). */
  wishes: Map<string, readonly string[]>;
  /** How many of `wishes` have each category. */
  wishCats: Map<string, number>;
  cell: Cell;
  /** Their place when filed (undefined: none). */
  place: Vec3 | undefined;
  /** The last visit's stamp (nearSearches visits each member once). */
  stamp: number;
}

export interface Cell {
  key: string;
  /** undefined: the members without a place (their searches have no distance). */
  center: Vec3 | undefined;
  members: Map<string, Interest>;
  /** The widest search distance of its members (an upper bound: only grows until the cell empties). */
  maxKm: number;
  /**
   * Members with a saved search on each category, and those with a search on no category (any
   * listing may match it) by the search's words: a listing visits only the groups whose words it
   * holds (the group without words always).
   */
  byCategory: Map<string, Set<Interest>>;
  anyCategory: Map<string, { query: readonly QueryWord[] | undefined; members: Set<Interest> }>;
  /** Members with a wishlisted listing in each category (the demand preview). */
  byWish: Map<string, Set<Interest>>;
}

/**
 * Cells of 0.025° latitude by 0.0375° longitude: about 2.8 by 2.6 km in the Netherlands. Small
 * enough that a 10 km question visits little beyond its circle (the demand preview went from 7 to
 * 4 ms a question at 100,000 searches with 11 km cells), large enough that a 25 km search's
 * listing looks at a few hundred cells.
 */
const CELL_LAT = 0.025;
const CELL_LON = 0.0375;
/** Farthest a place in a cell lies from the cell's centre, generously (the Netherlands' latitudes and beyond). */
const CELL_REACH_KM = 3;
const RAD = Math.PI / 180;
const NOWHERE = 'nowhere';

export const chordKm = (a: Vec3, b: Vec3) => {
  const dx = a.x - b.x;
  const dy = a.y - b.y;
  const dz = a.z - b.z;
  return kmForChord2(dx * dx + dy * dy + dz * dz);
};

/** Back from a unit vector to degrees (the members table keeps vectors; `matches` takes degrees). */
export const degreesOf = (v: Vec3) => ({ latitude: Math.asin(Math.max(-1, Math.min(1, v.z))) / RAD, longitude: Math.atan2(v.y, v.x) / RAD });

const searchKm = (s: BookSearch) => s.filters.distanceKm ?? SEARCH_DEFAULT_DISTANCE_KM;

/**
 * Every member with a saved search or a wishlist entry, in memory on each replica, grouped by the
 * cell of their place: a listing (or the demand preview's place) looks only at cells whose centre
 * lies within reach, never at the whole book.
 */
export class InterestBook {
  private members = new Map<string, Interest>();
  private cells = new Map<string, Cell>();
  private searchCount = 0;
  private wishCount = 0;
  private stamp = 0;

  private placeOf: (userId: string) => Vec3 | undefined;
  private categoriesOf: (listingId: string) => readonly string[] | undefined;
  /** One array per set of categories: a million wishes share a few hundred. */
  private catSets = new Map<string, readonly string[]>();

  /** `categoriesOf`: a listing's categories now (the search index); undefined when not known. */
  constructor(placeOf: (userId: string) => Vec3 | undefined, categoriesOf: (listingId: string) => readonly string[] | undefined = () => undefined) {
    this.placeOf = placeOf;
    this.categoriesOf = categoriesOf;
  }

  get size() {
    return { members: this.members.size, searches: this.searchCount, wishes: this.wishCount, cells: this.cells.size };
  }

  get(userId: string): Interest | undefined {
    return this.members.get(userId);
  }

  /** Replaces a member's searches when `version` is newer than the one held; answers whether it did. */
  setSearches(userId: string, version: number, searches: BookSearch[]): boolean {
    const held = this.members.get(userId);
    if (held && held.version >= version) return false;
    const interest = held ?? this.file(userId);
    this.refileOne(interest);
    this.searchCount += searches.length - interest.searches.length;
    interest.version = version;
    for (const s of searches) compiledOf(s);
    this.unindex(interest);
    interest.searches = searches;
    this.index(interest);
    for (const s of searches) interest.cell.maxKm = Math.max(interest.cell.maxKm, searchKm(s));
    this.dropIfEmpty(interest);
    return true;
  }

  addWish(userId: string, listingId: string): void {
    const interest = this.members.get(userId) ?? this.file(userId);
    if (interest.wishes.has(listingId)) return;
    this.wish(interest, listingId);
  }

  /** A listing that ended (traded or removed): off these members' wishlists. */
  endWishes(listingId: string, userIds: Iterable<string>): void {
    for (const userId of userIds) {
      const interest = this.members.get(userId);
      if (!interest?.wishes.has(listingId)) continue;
      this.unwish(interest, listingId);
      this.dropIfEmpty(interest);
    }
  }

  /** A member's wishlist as the store holds it now (the load, and the periodic reload as a backstop). */
  setWishes(userId: string, listingIds: Iterable<string>): void {
    const interest = this.members.get(userId) ?? this.file(userId);
    for (const id of [...interest.wishes.keys()]) this.unwish(interest, id);
    for (const id of listingIds) if (!interest.wishes.has(id)) this.wish(interest, id);
    this.dropIfEmpty(interest);
  }

  private wish(interest: Interest, listingId: string) {
    const found = this.categoriesOf(listingId) ?? [];
    const key = found.join(',');
    let cats = this.catSets.get(key);
    if (!cats) this.catSets.set(key, (cats = [...found]));
    interest.wishes.set(listingId, cats);
    for (const c of cats) {
      const n = (interest.wishCats.get(c) ?? 0) + 1;
      interest.wishCats.set(c, n);
      if (n === 1) setOf(interest.cell.byWish, c).add(interest);
    }
    this.wishCount++;
  }

  private unwish(interest: Interest, listingId: string) {
    const cats = interest.wishes.get(listingId) ?? [];
    interest.wishes.delete(listingId);
    for (const c of cats) {
      const n = (interest.wishCats.get(c) ?? 1) - 1;
      if (n) {
        interest.wishCats.set(c, n);
      } else {
        interest.wishCats.delete(c);
        dropFrom(interest.cell.byWish, c, interest);
      }
    }
    this.wishCount--;
  }

  /** Members whose wishes were not in the last reload lose them. */
  clearWishesExcept(keep: ReadonlySet<string>): void {
    for (const interest of [...this.members.values()]) if (!keep.has(interest.userId) && interest.wishes.size) this.setWishes(interest.userId, []);
  }

  /**
   * Calls `visit` once for each member who may want a listing with these categories at `at`: with a
   * saved search on one of them or on none, or (`wishes`) a wishlisted listing in one of them. Their
   * cell lies within reach of `at`: within their widest search's distance, or within `km` when
   * given (then members without a place are left out; else they are all visited).
   */
  nearSearches(
    at: Vec3 | undefined,
    categoryIds: readonly string[],
    visit: (interest: Interest) => void,
    options: { km?: number; wishes?: boolean; hasWords?: (query: readonly QueryWord[]) => boolean } = {},
  ): void {
    const stamp = ++this.stamp;
    const once = (interest: Interest) => {
      if (interest.stamp === stamp) return;
      interest.stamp = stamp;
      visit(interest);
    };
    const { km, wishes, hasWords } = options;
    for (const cell of this.cells.values()) {
      if (cell.center) {
        if (!at || chordKm(at, cell.center) > (km ?? cell.maxKm) + CELL_REACH_KM) continue;
      } else if (km !== undefined) {
        continue;
      }
      for (const { query, members } of cell.anyCategory.values()) {
        if (query && hasWords && !hasWords(query)) continue;
        for (const m of members) once(m);
      }
      for (const id of categoryIds) {
        for (const m of cell.byCategory.get(id) ?? []) once(m);
        if (wishes) for (const m of cell.byWish.get(id) ?? []) once(m);
      }
    }
  }

  /** Files members again whose place changed since (a member who moved; one whose place arrived late). */
  refile(): number {
    let moved = 0;
    for (const interest of this.members.values()) if (this.refileOne(interest)) moved++;
    return moved;
  }

  private refileOne(interest: Interest): boolean {
    const place = this.placeOf(interest.userId);
    const same = place === interest.place || (place && interest.place && place.x === interest.place.x && place.y === interest.place.y && place.z === interest.place.z);
    if (same) return false;
    this.unindex(interest);
    interest.cell.members.delete(interest.userId);
    if (!interest.cell.members.size) this.cells.delete(interest.cell.key);
    this.place(interest, place);
    return true;
  }

  private file(userId: string): Interest {
    const interest: Interest = { userId, version: 0, searches: [], wishes: new Map(), wishCats: new Map(), cell: undefined as unknown as Cell, place: undefined, stamp: 0 };
    this.members.set(userId, interest);
    this.place(interest, this.placeOf(userId));
    return interest;
  }

  private place(interest: Interest, place: Vec3 | undefined) {
    interest.place = place;
    const key = place ? cellKey(place) : NOWHERE;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { key, center: place && cellCenter(place), members: new Map(), maxKm: 0, byCategory: new Map(), anyCategory: new Map(), byWish: new Map() };
      this.cells.set(key, cell);
    }
    cell.members.set(interest.userId, interest);
    interest.cell = cell;
    for (const s of interest.searches) cell.maxKm = Math.max(cell.maxKm, searchKm(s));
    this.index(interest);
  }

  /** Files the member's searches and wishes under their cell's categories. */
  private index(interest: Interest) {
    const cell = interest.cell;
    for (const s of interest.searches) {
      const cats = s.filters.categoryIds ?? [];
      if (!cats.length) {
        const key = s.filters.q ?? '';
        let group = cell.anyCategory.get(key);
        if (!group) cell.anyCategory.set(key, (group = { query: compiledOf(s).query, members: new Set() }));
        group.members.add(interest);
      }
      for (const c of cats) setOf(cell.byCategory, c).add(interest);
    }
    for (const c of interest.wishCats.keys()) setOf(cell.byWish, c).add(interest);
  }

  private unindex(interest: Interest) {
    const cell = interest.cell;
    for (const s of interest.searches) {
      const cats = s.filters.categoryIds ?? [];
      if (!cats.length) {
        const key = s.filters.q ?? '';
        const group = cell.anyCategory.get(key);
        group?.members.delete(interest);
        if (group && !group.members.size) cell.anyCategory.delete(key);
      }
      for (const c of cats) dropFrom(cell.byCategory, c, interest);
    }
    for (const c of interest.wishCats.keys()) dropFrom(cell.byWish, c, interest);
  }

  private dropIfEmpty(interest: Interest) {
    if (interest.searches.length || interest.wishes.size) return;
    this.unindex(interest);
    this.members.delete(interest.userId);
    interest.cell.members.delete(interest.userId);
    if (!interest.cell.members.size) this.cells.delete(interest.cell.key);
  }
}

function setOf(map: Map<string, Set<Interest>>, key: string): Set<Interest> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function dropFrom(map: Map<string, Set<Interest>>, key: string, interest: Interest) {
  const set = map.get(key);
  set?.delete(interest);
  if (set && !set.size) map.delete(key);
}

function cellKey(v: Vec3): string {
  const { latitude, longitude } = degreesOf(v);
  return `${Math.floor(latitude / CELL_LAT)}:${Math.floor(longitude / CELL_LON)}`;
}

function cellCenter(v: Vec3): Vec3 {
  const { latitude, longitude } = degreesOf(v);
  return toVec((Math.floor(latitude / CELL_LAT) + 0.5) * CELL_LAT, (Math.floor(longitude / CELL_LON) + 0.5) * CELL_LON);
}
