/**
 * Text kept outside the JavaScript heap: UTF-8 appended into large buffers, addressed by a number
 * (`chunk · CHUNK_BYTES + offset`) and a length. A million card texts are then a few dozen
 * allocations instead of six million strings for the garbage collector to walk. A replaced or
 * removed text leaves garbage behind; the owner of the references compacts (copies the live texts
 * into a fresh arena) once there is enough of it.
 */
export const CHUNK_BYTES = 4 * 1024 * 1024;

export class Arena {
  private chunks: Buffer[] = [];
  private used = CHUNK_BYTES;
  /** Bytes referenced by someone (added minus released). */
  liveBytes = 0;

  /** Appends `text`; answers its reference (`length` tells how many bytes it took). */
  add(text: string): { ref: number; length: number } {
    const length = Buffer.byteLength(text, 'utf8');
    if (length > CHUNK_BYTES) throw new Error(`text of ${length} bytes does not fit an arena chunk`);
    if (this.used + length > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK_BYTES));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    this.chunks[chunk]!.write(text, this.used, 'utf8');
    const ref = chunk * CHUNK_BYTES + this.used;
    this.used += length;
    this.liveBytes += length;
    return { ref, length };
  }

  /** Appends bytes another arena holds (compaction): no decoding. */
  copy(from: Arena, ref: number, length: number): number {
    if (this.used + length > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK_BYTES));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    const source = Math.floor(ref / CHUNK_BYTES);
    const at = ref - source * CHUNK_BYTES;
    from.chunks[source]!.copy(this.chunks[chunk]!, this.used, at, at + length);
    const copied = chunk * CHUNK_BYTES + this.used;
    this.used += length;
    this.liveBytes += length;
    return copied;
  }

  read(ref: number, length: number): string {
    const chunk = Math.floor(ref / CHUNK_BYTES);
    const at = ref - chunk * CHUNK_BYTES;
    return this.chunks[chunk]!.toString('utf8', at, at + length);
  }

  release(length: number): void {
    this.liveBytes -= length;
  }

  /** Bytes allocated (live, garbage and the unused end of the last chunk). */
  get allocatedBytes(): number {
    return this.chunks.length * CHUNK_BYTES;
  }

  /** The bytes written so far, chunk by chunk (the last one only up to where it is filled): for a snapshot. */
  written(): Buffer[] {
    return this.chunks.map((chunk, i) => (i === this.chunks.length - 1 ? chunk.subarray(0, this.used) : chunk));
  }

  /** An arena holding `chunks` as written by `written()` (each a full chunk but the last), `liveBytes` of them in use. */
  static restore(chunks: Buffer[], liveBytes: number): Arena {
    const arena = new Arena();
    arena.chunks = chunks.map((chunk, i) => {
      if (i < chunks.length - 1 && chunk.length === CHUNK_BYTES) return chunk;
      const full = Buffer.allocUnsafeSlow(CHUNK_BYTES);
      chunk.copy(full);
      return full;
    });
    arena.used = chunks.length ? chunks.at(-1)!.length : CHUNK_BYTES;
    arena.liveBytes = liveBytes;
    return arena;
  }

  /** Whether copying the live texts would give back at least a third of the space, and more than two chunks. */
  get wantsCompaction(): boolean {
    const garbage = this.allocatedBytes - this.liveBytes;
    return garbage > 2 * CHUNK_BYTES && garbage > this.allocatedBytes / 3;
  }
}
