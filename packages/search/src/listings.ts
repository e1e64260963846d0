import type { ListingType } from '@ruilplein/contracts';
import { isPlace, toVec } from './geo.ts';
import type { MemberTable } from './members.ts';
import { capacityFor, hashId, SlotTable, type TableImage } from './slots.ts';
import { analyze, FIELD } from './text.ts';
import { TextIndex } from './textindex.ts';

/** A listing as the search needs it: the fields of `listing.listing.*` events (or of the stored document). */
export interface ListingState {
  id: string;
  version: number;
  ownerId: string;
  active: boolean;
  title: string;
  /** The description's first 200 characters. */
  excerpt: string;
  listingType: ListingType;
  acceptsItems: boolean;
  isPremium: boolean;
  initialValue: number | null;
  categoryIds: readonly string[];
  imageUrl: string;
  thumbnailUrl: string;
  placeholder: string;
  createdAt: Date | string | number;
  latitude?: number;
  longitude?: number;
}

// Row flags.
export const LIVE = 1;
export const SERVICE = 2;
export const ACCEPTS_ITEMS = 4;
export const PREMIUM = 8;
export const PLACED = 16;
/** Removed (deleted or no longer active): only its version is kept, so an older event cannot bring it back. */
const GONE = 32;

/** Grid cells of 0.05° latitude by 0.08° longitude: about 5.5 by 5.5 km in the Netherlands. */
export const CELL_LAT = 0.05;
export const CELL_LON = 0.08;
const LON_CELLS = Math.ceil(360 / CELL_LON);
/** Where listings without a place are kept (found only by searches without a place). */
const NOWHERE = 0;

export const latCell = (latitude: number) => Math.floor((latitude + 90) / CELL_LAT);
export const lonCell = (longitude: number) => Math.min(LON_CELLS - 1, Math.floor((longitude + 180) / CELL_LON));

export interface Cell {
  /** Grid position (NOWHERE: -1, -1). */
  lat: number;
  lon: number;
  slots: Int32Array;
  n: number;
}

/**
 * The active listings, column-wise in typed arrays (one row per listing, reused after removal),
 * with a grid of cells over latitude and longitude for "within R km" and a bit set of categories
 * per row. Card texts (title, excerpt, photo paths, placeholder) live in the arena. Changes are
 * applied only when their `version` is newer than the row's, so events may arrive twice or late.
 */
export class ListingIndex extends SlotTable {
  flags: Uint8Array;
  versions: Uint32Array;
  /** Creation time in ms (for a removed row: when it was removed). */
  created: Float64Array;
  /** Tie-break after `created`, the same on every replica (a hash of the id). */
  keys: Uint32Array;
  /** Estimated value in cents; -1 for none. */
  values: Int32Array;
  owners: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  zs: Float64Array;
  /** `words` 32-bit words per row, bit i for category `categories[i]`. */
  cats: Uint32Array;
  words = 1;
  categories: string[] = [];
  private categoryBit = new Map<string, number>();
  private cellOf: Int32Array;
  private cellPos: Int32Array;
  cells: Cell[] = [{ lat: -1, lon: -1, slots: new Int32Array(16), n: 0 }];
  private cellAt = new Map<number, number>();
  /** Rows with a listing (not removed). */
  live = 0;
  readonly members: MemberTable;
  /** Keyword index over titles and excerpts (category names are matched per category, query.ts). */
  keywords: TextIndex;

  constructor(members: MemberTable, capacity = 1024) {
    super(capacity);
    this.members = members;
    this.flags = new Uint8Array(capacity);
    this.versions = new Uint32Array(capacity);
    this.created = new Float64Array(capacity);
    this.keys = new Uint32Array(capacity);
    this.values = new Int32Array(capacity);
    this.owners = new Int32Array(capacity);
    this.xs = new Float64Array(capacity);
    this.ys = new Float64Array(capacity);
    this.zs = new Float64Array(capacity);
    this.cats = new Uint32Array(capacity * this.words);
    this.cellOf = new Int32Array(capacity).fill(-1);
    this.cellPos = new Int32Array(capacity);
    this.keywords = new TextIndex(capacity);
  }

  protected grow(capacity: number): void {
    const grown = <T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(from: T, to: T, width = 1): T => {
      to.set(from.subarray(0, this.top * width) as never);
      return to;
    };
    this.flags = grown(this.flags, new Uint8Array(capacity));
    this.versions = grown(this.versions, new Uint32Array(capacity));
    this.created = grown(this.created, new Float64Array(capacity));
    this.keys = grown(this.keys, new Uint32Array(capacity));
    this.values = grown(this.values, new Int32Array(capacity));
    this.owners = grown(this.owners, new Int32Array(capacity));
    this.xs = grown(this.xs, new Float64Array(capacity));
    this.ys = grown(this.ys, new Float64Array(capacity));
    this.zs = grown(this.zs, new Float64Array(capacity));
    this.cats = grown(this.cats, new Uint32Array(capacity * this.words), this.words);
    this.cellOf = grown(this.cellOf, new Int32Array(capacity).fill(-1));
    this.cellPos = grown(this.cellPos, new Int32Array(capacity));
    this.keywords.grow(capacity, this.top);
  }

  /** The bit of a category, interning it (more than 32 categories widen every row by a word). */
  categoryBitOf(id: string, intern = true): number {
    let bit = this.categoryBit.get(id);
    if (bit !== undefined || !intern) return bit ?? -1;
    bit = this.categories.length;
    this.categories.push(id);
    this.categoryBit.set(id, bit);
    if (bit >= this.words * 32) this.widen(this.words + 1);
    return bit;
  }

  private widen(words: number): void {
    const cats = new Uint32Array(this.capacity * words);
    for (let slot = 0; slot < this.top; slot++) {
      for (let w = 0; w < this.words; w++) cats[slot * words + w] = this.cats[slot * this.words + w]!;
    }
    this.cats = cats;
    this.words = words;
  }

  version(id: string): number {
    const slot = this.find(id);
    return slot < 0 ? 0 : this.versions[slot]!;
  }

  has(id: string): boolean {
    const slot = this.find(id);
    return slot >= 0 && (this.flags[slot]! & LIVE) !== 0;
  }

  /**
   * Applies a listing's state when newer than the row's; an inactive state removes it (`now`, in ms
   * on the platform's clock, dates the removal for `sweep`). Answers whether it applied.
   */
  apply(state: ListingState, now: number): boolean {
    let slot = this.find(state.id);
    if (slot >= 0 && this.versions[slot]! >= state.version) return false;
    if (!state.active) return this.remove(state.id, state.version, now);
    const text = JSON.stringify([state.title, state.excerpt, state.imageUrl, state.thumbnailUrl, state.placeholder]);
    if (slot < 0) {
      slot = this.insert(state.id, text);
      this.keys[slot] = hashId(state.id);
      this.cellOf[slot] = -1;
    } else {
      this.setText(slot, text);
    }
    if (!(this.flags[slot]! & LIVE)) this.live++;
    this.versions[slot] = state.version;
    this.created[slot] = new Date(state.createdAt).getTime();
    this.values[slot] = state.initialValue === null || state.initialValue === undefined ? -1 : Math.round(state.initialValue * 100);
    this.owners[slot] = this.members.slotOf(state.ownerId);
    let flags = LIVE;
    if (state.listingType === 'service') flags |= SERVICE;
    if (state.acceptsItems) flags |= ACCEPTS_ITEMS;
    if (state.isPremium) flags |= PREMIUM;
    let cell = NOWHERE;
    if (isPlace(state.latitude, state.longitude)) {
      flags |= PLACED;
      const v = toVec(state.latitude!, state.longitude!);
      this.xs[slot] = v.x;
      this.ys[slot] = v.y;
      this.zs[slot] = v.z;
      cell = this.cellFor(latCell(state.latitude!), lonCell(state.longitude!));
    }
    this.flags[slot] = flags;
    const bits = state.categoryIds.map((id) => this.categoryBitOf(id));
    const base = slot * this.words;
    this.cats.fill(0, base, base + this.words);
    for (const bit of bits) this.cats[base + (bit >> 5)]! |= 1 << (bit & 31);
    this.place(slot, cell);
    const title = analyze(state.title);
    const excerpt = analyze(state.excerpt);
    this.keywords.set(slot, [{ field: FIELD.title, ...title }, { field: FIELD.excerpt, ...excerpt }], this.top);
    return true;
  }

  /** Removes a listing (deleted, traded, owner suspended) unless the row holds a newer version; `now` dates it for `sweep`. */
  remove(id: string, version: number, now: number): boolean {
    let slot = this.find(id);
    if (slot >= 0 && this.versions[slot]! >= version) return false;
    if (slot < 0) {
      slot = this.insert(id, '');
      this.keys[slot] = hashId(id);
      this.cellOf[slot] = -1;
    } else {
      if (this.flags[slot]! & LIVE) this.live--;
      this.setText(slot, '');
    }
    this.place(slot, -1);
    this.keywords.clear(slot);
    this.flags[slot] = GONE;
    this.versions[slot] = version;
    this.created[slot] = now;
    this.cats.fill(0, slot * this.words, (slot + 1) * this.words);
    return true;
  }

  /** Forgets removed rows older than `before` (no late event about them is expected any more). */
  sweep(before: number): number {
    let swept = 0;
    for (let slot = 0; slot < this.top; slot++) {
      if (this.flags[slot] === GONE && this.created[slot]! < before) {
        this.flags[slot] = 0;
        this.versions[slot] = 0;
        this.removeSlot(slot);
        swept++;
      }
    }
    return swept;
  }

  private cellFor(lat: number, lon: number): number {
    const key = lat * LON_CELLS + lon;
    let index = this.cellAt.get(key);
    if (index === undefined) {
      index = this.cells.length;
      this.cells.push({ lat, lon, slots: new Int32Array(16), n: 0 });
      this.cellAt.set(key, index);
    }
    return index;
  }

  /** The cell at a grid position, or undefined when no listing was ever there. */
  cellIndex(lat: number, lon: number): number | undefined {
    return this.cellAt.get(lat * LON_CELLS + lon);
  }

  /** Moves the row into `cell` (-1: out of every cell). */
  private place(slot: number, cell: number): void {
    const from = this.cellOf[slot]!;
    if (from === cell) return;
    if (from >= 0) {
      // Swap-remove: the last entry takes the hole.
      const c = this.cells[from]!;
      const pos = this.cellPos[slot]!;
      const last = c.slots[--c.n]!;
      c.slots[pos] = last;
      this.cellPos[last] = pos;
    }
    this.cellOf[slot] = cell;
    if (cell < 0) return;
    const c = this.cells[cell]!;
    if (c.n === c.slots.length) {
      const more = new Int32Array(c.slots.length * 2);
      more.set(c.slots);
      c.slots = more;
    }
    c.slots[c.n] = slot;
    this.cellPos[slot] = c.n++;
  }

  /** The card texts of a row: title, excerpt, photo paths and placeholder. */
  card(slot: number): { id: string; title: string; excerpt: string; imageUrl: string; thumbnailUrl: string; placeholder: string } {
    const [title, excerpt, imageUrl, thumbnailUrl, placeholder] = JSON.parse(this.text(slot)) as string[];
    return { id: this.id(slot), title: title!, excerpt: excerpt!, imageUrl: imageUrl!, thumbnailUrl: thumbnailUrl!, placeholder: placeholder! };
  }

  /** The category ids of a row. */
  categoryIdsOf(slot: number): string[] {
    const out: string[] = [];
    for (let w = 0; w < this.words; w++) {
      let word = this.cats[slot * this.words + w]!;
      while (word !== 0) {
        const low = word & -word;
        out.push(this.categories[w * 32 + 31 - Math.clz32(low)]!);
        word ^= low;
      }
    }
    return out;
  }

  image(): TableImage {
    const image = this.imageBase();
    const top = this.top;
    // Nested arrays are beyond FerretDB: the cells' grid positions are columns too.
    Object.assign(image.meta, { words: this.words, categories: [...this.categories], live: this.live });
    Object.assign(image.columns, {
      flags: this.flags.slice(0, top),
      versions: this.versions.slice(0, top),
      created: this.created.slice(0, top),
      keys: this.keys.slice(0, top),
      values: this.values.slice(0, top),
      owners: this.owners.slice(0, top),
      xs: this.xs.slice(0, top),
      ys: this.ys.slice(0, top),
      zs: this.zs.slice(0, top),
      cats: this.cats.slice(0, top * this.words),
      cellOf: this.cellOf.slice(0, top),
      cellLat: Int32Array.from(this.cells, (c) => c.lat),
      cellLon: Int32Array.from(this.cells, (c) => c.lon),
      ...this.keywords.image(top),
    });
    return image;
  }

  static restore(image: TableImage, members: MemberTable): ListingIndex {
    const index = new ListingIndex(members, capacityFor(image.meta.top));
    index.restoreBase(image);
    const meta = image.meta as TableImage['meta'] & { words: number; categories: string[]; live: number };
    for (const id of meta.categories) index.categoryBitOf(id);
    if (index.words !== meta.words) index.widen(meta.words);
    index.live = meta.live;
    const c = image.columns;
    index.flags.set(c.flags as Uint8Array);
    index.versions.set(c.versions as Uint32Array);
    index.created.set(c.created as Float64Array);
    index.keys.set(c.keys as Uint32Array);
    index.values.set(c.values as Int32Array);
    index.owners.set(c.owners as Int32Array);
    index.xs.set(c.xs as Float64Array);
    index.ys.set(c.ys as Float64Array);
    index.zs.set(c.zs as Float64Array);
    index.cats.set(c.cats as Uint32Array);
    // The same cells in the same order, then every row back into its cell.
    const cellLat = c.cellLat as Int32Array;
    const cellLon = c.cellLon as Int32Array;
    for (let i = 1; i < cellLat.length; i++) index.cellFor(cellLat[i]!, cellLon[i]!);
    const cellOf = c.cellOf as Int32Array;
    for (let slot = 0; slot < meta.top; slot++) if (cellOf[slot]! >= 0) index.place(slot, cellOf[slot]!);
    index.keywords.restore(c, meta.top);
    return index;
  }

  /** Memory this index holds: columns, hash table, grid and texts. */
  bytes(): number {
    const columns = this.capacity * (1 + 4 + 8 + 4 + 4 + 4 + 8 * 3 + 4 * this.words + 4 + 4);
    const grid = this.cells.reduce((sum, c) => sum + c.slots.byteLength + 64, 0);
    return this.baseBytes() + columns + grid + this.arena.allocatedBytes + this.keywords.bytes();
  }
}
