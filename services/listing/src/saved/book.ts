import { SEARCH_DEFAULT_DISTANCE_KM, type SavedSearchAlert, type SavedSearchFilters } from '@ruilplein/contracts';
import { kmForChord2, toVec, type Vec3 } from '@ruilplein/search';

/** A saved search as the matcher holds it. */
export interface BookSearch {
  id: string;
  name: string;
  alert: SavedSearchAlert;
  createdAt: number;
  filters: SavedSearchFilters;
}

/** A member who wants something: their saved searches and wishlisted listings, filed under their place's cell. */
export interface Interest {
  userId: string;
  version: number;
  searches: BookSearch[];
  wishes: Set<string>;
  cell: Cell;
  /** Their place when filed (undefined: none). */
  place: Vec3 | undefined;
}

export interface Cell {
  key: string;
  /** undefined: the members without a place (their searches have no distance). */
  center: Vec3 | undefined;
  members: Map<string, Interest>;
  /** The widest search distance of its members (an upper bound: only grows until the cell empties). */
  maxKm: number;
}

/** Cells of 0.1° latitude by 0.15° longitude: about 11 by 10 km in the Netherlands. */
const CELL_LAT = 0.1;
const CELL_LON = 0.15;
/** Farthest a place in a cell lies from the cell's centre, generously (the Netherlands' latitudes and beyond). */
const CELL_REACH_KM = 12;
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

  private placeOf: (userId: string) => Vec3 | undefined;

  constructor(placeOf: (userId: string) => Vec3 | undefined) {
    this.placeOf = placeOf;
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
    interest.searches = searches;
    for (const s of searches) interest.cell.maxKm = Math.max(interest.cell.maxKm, searchKm(s));
    this.dropIfEmpty(interest);
    return true;
  }

  addWish(userId: string, listingId: string): void {
    const interest = this.members.get(userId) ?? this.file(userId);
    if (interest.wishes.has(listingId)) return;
    interest.wishes.add(listingId);
    this.wishCount++;
  }

  /** A member's wishlist as the store holds it now (the periodic reload: removals are not announced). */
  setWishes(userId: string, listingIds: Iterable<string>): void {
    const interest = this.members.get(userId) ?? this.file(userId);
    this.wishCount -= interest.wishes.size;
    interest.wishes = new Set(listingIds);
    this.wishCount += interest.wishes.size;
    this.dropIfEmpty(interest);
  }

  /** Members whose wishes were not in the last reload lose them. */
  clearWishesExcept(keep: ReadonlySet<string>): void {
    for (const interest of [...this.members.values()]) if (!keep.has(interest.userId) && interest.wishes.size) this.setWishes(interest.userId, []);
  }

  /**
   * Calls `visit` for every member whose place lies within reach of `at` (their widest search's
   * distance, or `km` when given), and for the members without a place unless `km` is given.
   */
  near(at: Vec3 | undefined, visit: (interest: Interest) => void, km?: number): void {
    for (const cell of this.cells.values()) {
      if (!cell.center) {
        if (km === undefined) for (const m of cell.members.values()) visit(m);
        continue;
      }
      if (!at) continue;
      const reach = (km ?? cell.maxKm) + CELL_REACH_KM;
      if (chordKm(at, cell.center) > reach) continue;
      for (const m of cell.members.values()) visit(m);
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
    interest.cell.members.delete(interest.userId);
    if (!interest.cell.members.size) this.cells.delete(interest.cell.key);
    this.place(interest, place);
    return true;
  }

  private file(userId: string): Interest {
    const interest: Interest = { userId, version: 0, searches: [], wishes: new Set(), cell: undefined as unknown as Cell, place: undefined };
    this.members.set(userId, interest);
    this.place(interest, this.placeOf(userId));
    return interest;
  }

  private place(interest: Interest, place: Vec3 | undefined) {
    interest.place = place;
    const key = place ? cellKey(place) : NOWHERE;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { key, center: place && cellCenter(place), members: new Map(), maxKm: 0 };
      this.cells.set(key, cell);
    }
    cell.members.set(interest.userId, interest);
    interest.cell = cell;
    for (const s of interest.searches) cell.maxKm = Math.max(cell.maxKm, searchKm(s));
  }

  private dropIfEmpty(interest: Interest) {
    if (interest.searches.length || interest.wishes.size) return;
    this.members.delete(interest.userId);
    interest.cell.members.delete(interest.userId);
    if (!interest.cell.members.size) this.cells.delete(interest.cell.key);
  }
}

function cellKey(v: Vec3): string {
  const { latitude, longitude } = degreesOf(v);
  return `${Math.floor(latitude / CELL_LAT)}:${Math.floor(longitude / CELL_LON)}`;
}

function cellCenter(v: Vec3): Vec3 {
  const { latitude, longitude } = degreesOf(v);
  return toVec((Math.floor(latitude / CELL_LAT) + 0.5) * CELL_LAT, (Math.floor(longitude / CELL_LON) + 0.5) * CELL_LON);
}
