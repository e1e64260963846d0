import { Arena } from './arena.ts';

export type Column = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A table as a snapshot holds it: copies of its columns (rows 0…top), its texts, and a few numbers. */
export interface TableImage {
  meta: { top: number; size: number; liveBytes: number; [key: string]: unknown };
  columns: Record<string, Column>;
  chunks: Buffer[];
}

/** The smallest power of two that holds `n` rows (at least 1024). */
export const capacityFor = (n: number) => 2 ** Math.max(10, Math.ceil(Math.log2(Math.max(1, n) * 1.25)));

/** FNV-1a over the UTF-16 code units: ids are short ASCII, so this is quick and spreads well. */
export function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const MAX_ID_BYTES = 255;

/**
 * Numbered slots addressed by a string id, for tables of a million rows without a million
 * objects: an open-addressing hash table (linear probing) over typed arrays, and per slot a text
 * in an Arena that starts with the id itself (so the id is stored once). Subclasses keep their
 * columns in typed arrays of `capacity` rows and grow them in `grow`.
 */
export abstract class SlotTable {
  capacity: number;
  /** Slots ever handed out; those below it are in use or on the free list. */
  top = 0;
  /** Slots in use. */
  size = 0;
  arena = new Arena();
  private hashes: Uint32Array;
  private refs: Float64Array;
  private lens: Uint32Array;
  private idLens: Uint8Array;
  private table: Int32Array;
  private mask: number;
  private free: number[] = [];

  constructor(capacity = 1024) {
    this.capacity = capacity;
    this.hashes = new Uint32Array(capacity);
    this.refs = new Float64Array(capacity);
    this.lens = new Uint32Array(capacity);
    this.idLens = new Uint8Array(capacity);
    this.table = new Int32Array(capacity * 2);
    this.mask = capacity * 2 - 1;
  }

  /** Grows the subclass' columns to `capacity` rows (copying the first `top`). */
  protected abstract grow(capacity: number): void;

  find(id: string): number {
    const h = hashId(id);
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const entry = this.table[i]!;
      if (entry === 0) return -1;
      const slot = entry - 1;
      if (this.hashes[slot] === h && this.id(slot) === id) return slot;
    }
  }

  /** A new slot for `id` (not present) with its text. */
  protected insert(id: string, text: string): number {
    if (Buffer.byteLength(id) > MAX_ID_BYTES) throw new Error('id too long');
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.top === this.capacity) this.resize(this.capacity * 2);
      slot = this.top++;
    }
    const h = hashId(id);
    this.hashes[slot] = h;
    this.writeText(slot, id, text);
    let i = h & this.mask;
    while (this.table[i] !== 0) i = (i + 1) & this.mask;
    this.table[i] = slot + 1;
    this.size++;
    return slot;
  }

  /** Replaces the slot's text (its id stays). */
  protected setText(slot: number, text: string): void {
    const id = this.id(slot);
    this.arena.release(this.lens[slot]!);
    this.writeText(slot, id, text);
    if (this.arena.wantsCompaction) this.compact();
  }

  /** Frees the slot: out of the hash table (backward-shift deletion), its text released. */
  protected removeSlot(slot: number): void {
    let i = this.hashes[slot]! & this.mask;
    while (this.table[i] !== slot + 1) i = (i + 1) & this.mask;
    this.table[i] = 0;
    for (let j = (i + 1) & this.mask; this.table[j] !== 0; j = (j + 1) & this.mask) {
      const home = this.hashes[this.table[j]! - 1]! & this.mask;
      // Move the entry back into the hole unless its home lies cyclically in (i, j].
      const inRange = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!inRange) {
        this.table[i] = this.table[j]!;
        this.table[j] = 0;
        i = j;
      }
    }
    this.arena.release(this.lens[slot]!);
    this.lens[slot] = 0;
    this.idLens[slot] = 0;
    this.free.push(slot);
    this.size--;
  }

  id(slot: number): string {
    return this.arena.read(this.refs[slot]!, this.idLens[slot]!);
  }

  /** The slot's text after its id. */
  text(slot: number): string {
    const idLen = this.idLens[slot]!;
    return this.arena.read(this.refs[slot]! + idLen, this.lens[slot]! - idLen);
  }

  /** Copies of the base columns and the texts, taken at once (the texts are append-only: referenced, not copied). */
  protected imageBase(): TableImage {
    return {
      meta: { top: this.top, size: this.size, liveBytes: this.arena.liveBytes },
      columns: { free: Int32Array.from(this.free), hashes: this.hashes.slice(0, this.top), refs: this.refs.slice(0, this.top), lens: this.lens.slice(0, this.top), idLens: this.idLens.slice(0, this.top) },
      chunks: this.arena.written(),
    };
  }

  /** Takes over a snapshot's rows (the table must be new, with room for them); the hash table is built anew. */
  protected restoreBase(image: TableImage): void {
    const { top, size, liveBytes } = image.meta;
    const free = image.columns.free as Int32Array;
    if (top > this.capacity) throw new Error('snapshot larger than the table');
    this.top = top;
    this.size = size;
    this.free = [...free];
    this.hashes.set(image.columns.hashes as Uint32Array);
    this.refs.set(image.columns.refs as Float64Array);
    this.lens.set(image.columns.lens as Uint32Array);
    this.idLens.set(image.columns.idLens as Uint8Array);
    this.arena = Arena.restore(image.chunks, liveBytes);
    const freed = new Set(this.free);
    for (let slot = 0; slot < top; slot++) {
      if (freed.has(slot)) continue;
      let i = this.hashes[slot]! & this.mask;
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = slot + 1;
    }
  }

  /** Bytes of the columns this class keeps per slot, and of the hash table. */
  protected baseBytes(): number {
    return this.capacity * (4 + 8 + 4 + 1) + this.table.byteLength;
  }

  private writeText(slot: number, id: string, text: string): void {
    const { ref, length } = this.arena.add(id + text);
    this.refs[slot] = ref;
    this.lens[slot] = length;
    this.idLens[slot] = Buffer.byteLength(id);
  }

  private resize(capacity: number): void {
    const copy = <T extends Uint32Array | Float64Array | Uint8Array>(from: T, make: (n: number) => T): T => {
      const to = make(capacity);
      to.set(from.subarray(0, this.top) as never);
      return to;
    };
    this.hashes = copy(this.hashes, (n) => new Uint32Array(n));
    this.refs = copy(this.refs, (n) => new Float64Array(n));
    this.lens = copy(this.lens, (n) => new Uint32Array(n));
    this.idLens = copy(this.idLens, (n) => new Uint8Array(n));
    this.grow(capacity);
    this.capacity = capacity;
    this.table = new Int32Array(capacity * 2);
    this.mask = capacity * 2 - 1;
    const free = new Set(this.free);
    for (let slot = 0; slot < this.top; slot++) {
      if (free.has(slot)) continue;
      let i = this.hashes[slot]! & this.mask;
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = slot + 1;
    }
  }

  /** Copies the live texts into a fresh arena, dropping the garbage of replaced and removed ones. */
  private compact(): void {
    const fresh = new Arena();
    const free = new Set(this.free);
    for (let slot = 0; slot < this.top; slot++) {
      if (free.has(slot)) continue;
      this.refs[slot] = fresh.copy(this.arena, this.refs[slot]!, this.lens[slot]!);
    }
    this.arena = fresh;
  }
}
