import { SEARCH_SUGGESTIONS_MAX } from '@ruilplein/contracts';
import { FIELD_WEIGHT, termQuality, type QueryWord } from './text.ts';

/** At most this many distinct terms per listing are kept (a 200-character excerpt and a title have far fewer). */
const MAX_TERMS = 255;
/** Words looked at per suggestion (the most frequent of a short prefix's words are among the first few thousand). */
const SUGGEST_SCAN = 5000;
const EXPANSION_CACHE = 20_000;
/** Entries a row has, about (a title and a 200-character excerpt): to weigh a row-wise check against a posting list. */
const ENTRIES_GUESS = 24;
/** Words a row-wise check takes at once (8 bits each in a Uint32 mark). */
const ROW_WORDS = 4;

interface Expansion {
  ids: number[];
  quality: number[];
  /** Terms looked at: those added later are checked on the next use. */
  upTo: number;
}

/** Per slot, the words of one query matched (bit i: word i) and the sum of their best scores. */
export interface TextHits {
  /** Bits of the query words matched through the index. */
  hits: Uint8Array;
  /** Sum over matched words (those without a category match) of quality × field weight. */
  score: Uint16Array;
  /** Per word matched by some category's name: the word's best through the index, per slot (else null). */
  best: (Uint8Array | null)[];
  /** Slots with any hit, `count` of them. */
  touched: Int32Array;
  count: number;
  /** Every row that can match is among `touched` (some word matches no category name). */
  driven: boolean;
}

/**
 * The keyword index of the listing rows: a dictionary of terms (ids in order of first sight), per
 * term a posting list of rows (`slot · 4 + field`, in Int32Arrays that grow by doubling), and per row
 * its entries in a shared Uint32Array pool (so an edit or removal takes the row out of exactly its
 * lists). Surface words map to their term for suggestions. No strings per row, no objects per entry.
 */
export class TextIndex {
  private termId = new Map<string, number>();
  terms: string[] = [];
  private lists: Int32Array[] = [];
  private listN: number[] = [];
  private pool: Uint32Array;
  private poolUsed = 0;
  private poolLive = 0;
  private refs: Uint32Array;
  private lens: Uint8Array;
  /** Surface word → term id, for suggestions; sorted lazily for prefix lookups. */
  private surface = new Map<string, number>();
  private sorted: string[] = [];
  private unsorted: string[] = [];
  private cache = new Map<string, Expansion>();
  // Scratch for one query at a time (the engine runs one at a time).
  private hits: Uint8Array;
  private score: Uint16Array;
  private wordBest: Uint8Array;
  /** Per query word that a category's name may match: its best per row (kept, cleared by `reset`). */
  private bests: Uint8Array[] = [];
  private touched = new Int32Array(4096);
  // Row-wise checks (`beginRows`): per term its qualities for up to ROW_WORDS words, the terms set.
  private packed = new Uint32Array(1024);
  private marked: number[] = [];
  private rowBest: (Uint8Array | null)[] = [];
  private mark = new Uint8Array(1024);

  constructor(capacity: number) {
    this.pool = new Uint32Array(Math.max(1024, capacity * 4));
    this.refs = new Uint32Array(capacity);
    this.lens = new Uint8Array(capacity);
    this.hits = new Uint8Array(capacity);
    this.score = new Uint16Array(capacity);
    this.wordBest = new Uint8Array(capacity);
  }

  grow(capacity: number, top: number): void {
    const refs = new Uint32Array(capacity);
    refs.set(this.refs.subarray(0, top));
    const lens = new Uint8Array(capacity);
    lens.set(this.lens.subarray(0, top));
    this.refs = refs;
    this.lens = lens;
    this.hits = new Uint8Array(capacity);
    this.score = new Uint16Array(capacity);
    this.wordBest = new Uint8Array(capacity);
    this.bests = [];
  }

  private intern(term: string): number {
    let id = this.termId.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termId.set(term, id);
      this.lists.push(new Int32Array(4));
      this.listN.push(0);
    }
    return id;
  }

  private addWord(word: string, id: number): void {
    if (this.surface.has(word)) return;
    this.surface.set(word, id);
    this.unsorted.push(word);
  }

  /** Replaces a row's entries with those of `fields` (per field its words, folded, and their terms). */
  set(slot: number, fields: readonly { field: number; words: readonly string[]; terms: readonly string[] }[], top: number): void {
    this.clear(slot);
    const entries: number[] = [];
    const seen = new Map<number, number>();
    for (const { field, words, terms } of fields) {
      terms.forEach((term, i) => {
        const id = this.intern(term);
        if (words[i]) this.addWord(words[i]!, id);
        const had = seen.get(id);
        if (had === undefined) seen.set(id, entries.push(id * 4 + field) - 1);
        else if (FIELD_WEIGHT[field]! > FIELD_WEIGHT[entries[had]! & 3]!) entries[had] = id * 4 + field;
      });
    }
    const n = Math.min(MAX_TERMS, entries.length);
    if (this.poolUsed + n > this.pool.length) this.makeRoom(n, top);
    this.refs[slot] = this.poolUsed;
    this.lens[slot] = n;
    for (let i = 0; i < n; i++) {
      const entry = entries[i]!;
      this.pool[this.poolUsed++] = entry;
      this.push(entry >>> 2, slot * 4 + (entry & 3));
    }
    this.poolLive += n;
  }

  /** Takes a row out of every list it is in. */
  clear(slot: number): void {
    const n = this.lens[slot]!;
    if (!n) return;
    const at = this.refs[slot]!;
    for (let i = 0; i < n; i++) {
      const entry = this.pool[at + i]!;
      const id = entry >>> 2;
      const list = this.lists[id]!;
      const value = slot * 4 + (entry & 3);
      const last = --this.listN[id]!;
      // Swap-remove: order within a list does not matter (the answer is ordered afterwards).
      const pos = list.lastIndexOf(value, last);
      list[pos] = list[last]!;
    }
    this.lens[slot] = 0;
    this.poolLive -= n;
  }

  private push(id: number, value: number): void {
    let list = this.lists[id]!;
    const n = this.listN[id]!;
    if (n === list.length) {
      const more = new Int32Array(list.length * 2);
      more.set(list);
      this.lists[id] = list = more;
    }
    list[n] = value;
    this.listN[id] = n + 1;
  }

  /** Compacts the pool (rows' live entries to the front) or grows it. */
  private makeRoom(n: number, top: number): void {
    const size = this.poolLive + n > this.pool.length / 2 ? this.pool.length * 2 : this.pool.length;
    const pool = new Uint32Array(size);
    let used = 0;
    for (let slot = 0; slot < top; slot++) {
      const len = this.lens[slot]!;
      if (!len) continue;
      pool.set(this.pool.subarray(this.refs[slot]!, this.refs[slot]! + len), used);
      this.refs[slot] = used;
      used += len;
    }
    this.pool = pool;
    this.poolUsed = used;
  }

  /** Term ids matching a query word, with their quality; cached per word and extended by terms added since. */
  expand(q: QueryWord): Expansion {
    const key = `${q.prefix ? '*' : ''}${q.word}`;
    let e = this.cache.get(key);
    if (!e) {
      if (this.cache.size >= EXPANSION_CACHE) this.cache.clear();
      e = { ids: [], quality: [], upTo: 0 };
      this.cache.set(key, e);
    }
    for (let id = e.upTo; id < this.terms.length; id++) {
      const quality = termQuality(q, this.terms[id]!);
      if (quality) {
        e.ids.push(id);
        e.quality.push(quality);
      }
    }
    e.upTo = this.terms.length;
    return e;
  }

  /**
   * Marks, per row, which query words it matches through the index and their best scores. Words
   * listed in `withBest` keep their per-row best apart (a category may beat it). Call `reset` after.
   *
   * When some word matches no category name, every answer must contain it: the rarest such word
   * (fewest postings) is read first and only its rows are candidates (`driven`); each other word is
   * then checked on those rows, through its posting lists or through the rows' own entries,
   * whichever is less work. A common word ('goed', 'gebruikt') then costs no pass over its list.
   */
  evaluate(query: readonly QueryWord[], withBest: readonly boolean[]): TextHits {
    const { hits, score } = this;
    const expansions = query.map((q) => this.expand(q));
    const totals = expansions.map((e) => e.ids.reduce((sum, id) => sum + this.listN[id]!, 0));
    let driver = -1;
    totals.forEach((total, w) => {
      if (!withBest[w] && (driver < 0 || total < totals[driver]!)) driver = w;
    });
    const order = driver < 0 ? query.map((_, w) => w) : [driver, ...query.map((_, w) => w).filter((w) => w !== driver)];
    const best = query.map((_, w) => (withBest[w] ? this.bestOf(w) : null));
    let count = 0;
    for (const w of order) {
      const bit = 1 << w;
      const own = best[w]!;
      const into = own ?? this.wordBest;
      const e = expansions[w]!;
      const onlyTouched = driver >= 0 && w !== driver;
      if (onlyTouched && count * ENTRIES_GUESS < totals[w]!) {
        // Through the candidate rows' own entries: a mark per matching term.
        const mark = this.markFor(e);
        for (let i = 0; i < count; i++) {
          const slot = this.touched[i]!;
          const at = this.refs[slot]!;
          let s = 0;
          for (let j = 0, n = this.lens[slot]!; j < n; j++) {
            const entry = this.pool[at + j]!;
            const quality = mark[entry >>> 2]!;
            if (quality) s = Math.max(s, quality * FIELD_WEIGHT[entry & 3]!);
          }
          if (s) {
            hits[slot]! |= bit;
            if (own) own[slot] = s;
            else score[slot]! += s;
          }
        }
        for (const id of e.ids) mark[id] = 0;
        continue;
      }
      const driverBit = driver >= 0 ? 1 << driver : 0;
      for (let k = 0; k < e.ids.length; k++) {
        const list = this.lists[e.ids[k]!]!;
        const n = this.listN[e.ids[k]!]!;
        const quality = e.quality[k]!;
        for (let i = 0; i < n; i++) {
          const value = list[i]!;
          const slot = value >>> 2;
          // Rows without the driving word are no candidates.
          if (onlyTouched && !(hits[slot]! & driverBit)) continue;
          const s = quality * FIELD_WEIGHT[value & 3]!;
          if (into[slot]! < s) {
            if (!(hits[slot]! & bit)) {
              if (hits[slot] === 0) {
                if (count === this.touched.length) this.growTouched();
                this.touched[count++] = slot;
              }
              hits[slot]! |= bit;
            }
            into[slot] = s;
          }
        }
      }
      // Fold the word's bests into the score (rows touched by this word are among all touched).
      if (!own) {
        for (let i = 0; i < count; i++) {
          const slot = this.touched[i]!;
          const s = into[slot]!;
          if (s) {
            score[slot]! += s;
            into[slot] = 0;
          }
        }
      }
    }
    return { hits, score, best, touched: this.touched, count, driven: driver >= 0 };
  }

  /**
   * Postings `evaluate` reads before it has candidates: the rarest word's that no category name
   * matches, or every word's when each may match one. A caller with fewer rows in reach (the grid
   * cells within the radius) does better with `beginRows`.
   */
  drivingCost(query: readonly QueryWord[], withBest: readonly boolean[]): number {
    let required = Infinity;
    let all = 0;
    query.forEach((q, w) => {
      const e = this.expand(q);
      let total = 0;
      for (const id of e.ids) total += this.listN[id]!;
      all += total;
      if (!withBest[w]) required = Math.min(required, total);
    });
    return required === Infinity ? all : required;
  }

  /**
   * Prepares checking rows one at a time (`scoreRow`) instead of reading postings: for a caller who
   * gathers the rows within reach with every other filter first. Each term's quality for each word
   * is packed into one mark (8 bits a word), so a row's entries are read once for all words. Null
   * for more than ROW_WORDS words (then `evaluate`).
   */
  beginRows(query: readonly QueryWord[], withBest: readonly boolean[]): TextHits | null {
    if (query.length > ROW_WORDS) return null;
    if (this.packed.length < this.terms.length) this.packed = new Uint32Array(this.terms.length * 2);
    query.forEach((q, w) => {
      const e = this.expand(q);
      for (let k = 0; k < e.ids.length; k++) {
        const id = e.ids[k]!;
        if (!this.packed[id]) this.marked.push(id);
        this.packed[id]! |= e.quality[k]! << (8 * w);
      }
    });
    this.rowBest = query.map((_, w) => (withBest[w] ? this.bestOf(w) : null));
    return { hits: this.hits, score: this.score, best: this.rowBest, touched: this.touched, count: 0, driven: true };
  }

  /** Sets a row's hits, score and bests as `evaluate` would (after `beginRows`); the row joins `result.touched`. */
  scoreRow(slot: number, result: TextHits): void {
    const { pool, packed } = this;
    const at = this.refs[slot]!;
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    for (let j = 0, m = this.lens[slot]!; j < m; j++) {
      const entry = pool[at + j]!;
      const mark = packed[entry >>> 2]!;
      if (!mark) continue;
      const weight = FIELD_WEIGHT[entry & 3]!;
      b0 = Math.max(b0, (mark & 255) * weight);
      b1 = Math.max(b1, ((mark >>> 8) & 255) * weight);
      b2 = Math.max(b2, ((mark >>> 16) & 255) * weight);
      b3 = Math.max(b3, (mark >>> 24) * weight);
    }
    // Unrolled (this runs for every row within reach): a word without a best adds to the score.
    const own = this.rowBest;
    let hit = 0;
    let sum = 0;
    if (b0) {
      hit |= 1;
      if (own[0]) own[0][slot] = b0;
      else sum += b0;
    }
    if (b1) {
      hit |= 2;
      if (own[1]) own[1][slot] = b1;
      else sum += b1;
    }
    if (b2) {
      hit |= 4;
      if (own[2]) own[2][slot] = b2;
      else sum += b2;
    }
    if (b3) {
      hit |= 8;
      if (own[3]) own[3][slot] = b3;
      else sum += b3;
    }
    this.hits[slot] = hit;
    this.score[slot] = sum;
    if (result.count === this.touched.length) this.growTouched();
    result.touched = this.touched;
    this.touched[result.count++] = slot;
  }

  private bestOf(w: number): Uint8Array {
    return (this.bests[w] ??= new Uint8Array(this.hits.length));
  }

  /** Quality per term id for an expansion (the caller clears the ids it set). */
  private markFor(e: Expansion): Uint8Array {
    if (this.mark.length < this.terms.length) this.mark = new Uint8Array(this.terms.length * 2);
    for (let k = 0; k < e.ids.length; k++) this.mark[e.ids[k]!] = e.quality[k]!;
    return this.mark;
  }

  /** Clears the scratch a query left. */
  reset(result: TextHits): void {
    for (const id of this.marked) this.packed[id] = 0;
    this.marked.length = 0;
    for (let i = 0; i < result.count; i++) {
      const slot = result.touched[i]!;
      this.hits[slot] = 0;
      this.score[slot] = 0;
      for (const best of result.best) if (best) best[slot] = 0;
    }
  }

  private growTouched(): void {
    const more = new Int32Array(this.touched.length * 2);
    more.set(this.touched);
    this.touched = more;
  }

  /** Rows a term is in (its document frequency). */
  frequency(id: number): number {
    return this.listN[id]!;
  }

  /** Up to SEARCH_SUGGESTIONS_MAX surface words beginning with `prefix` (folded), most frequent first, only those still in some row. */
  completions(prefix: string): string[] {
    if (this.unsorted.length > 2000 || (this.unsorted.length && this.sorted.length < 20_000)) this.merge();
    const found: { word: string; n: number }[] = [];
    const consider = (word: string) => {
      const n = this.listN[this.surface.get(word)!]!;
      if (n > 0) found.push({ word, n });
    };
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length && i < lo + SUGGEST_SCAN && this.sorted[i]!.startsWith(prefix); i++) consider(this.sorted[i]!);
    for (const word of this.unsorted) if (word.startsWith(prefix)) consider(word);
    found.sort((a, b) => b.n - a.n || a.word.length - b.word.length || (a.word < b.word ? -1 : 1));
    return found.slice(0, SEARCH_SUGGESTIONS_MAX).map((f) => f.word);
  }

  /** Sorts the words added since into the sorted ones (a merge: linear in the vocabulary). */
  private merge(): void {
    const added = this.unsorted.sort();
    const old = this.sorted;
    const out: string[] = new Array<string>(old.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length || j < added.length) out[k++] = j >= added.length || (i < old.length && old[i]! < added[j]!) ? old[i++]! : added[j++]!;
    this.sorted = out;
    this.unsorted = [];
  }

  /** The dictionary, the surface words and each row's entries, as snapshot columns. */
  image(top: number): Record<string, Uint8Array | Uint32Array> {
    const lens = this.lens.slice(0, top);
    let total = 0;
    for (let slot = 0; slot < top; slot++) total += lens[slot]!;
    const entries = new Uint32Array(total);
    let at = 0;
    for (let slot = 0; slot < top; slot++) {
      entries.set(this.pool.subarray(this.refs[slot]!, this.refs[slot]! + lens[slot]!), at);
      at += lens[slot]!;
    }
    const surfaceWords = [...this.surface.keys()];
    return {
      textTerms: Buffer.from(this.terms.join('\n'), 'utf8'),
      textWords: Buffer.from(surfaceWords.join('\n'), 'utf8'),
      textWordTerms: Uint32Array.from(surfaceWords, (w) => this.surface.get(w)!),
      textLens: lens,
      textEntries: entries,
    };
  }

  /** Takes over a snapshot's columns (the index must be new); the posting lists are built anew. */
  restore(columns: Record<string, unknown>, top: number): void {
    const text = (c: unknown) => Buffer.from((c as Uint8Array).buffer, (c as Uint8Array).byteOffset, (c as Uint8Array).byteLength).toString('utf8');
    const termText = text(columns.textTerms);
    for (const term of termText ? termText.split('\n') : []) this.intern(term);
    const wordText = text(columns.textWords);
    const wordTerms = columns.textWordTerms as Uint32Array;
    (wordText ? wordText.split('\n') : []).forEach((w, i) => this.addWord(w, wordTerms[i]!));
    const lens = columns.textLens as Uint8Array;
    const entries = columns.textEntries as Uint32Array;
    if (entries.length > this.pool.length) this.pool = new Uint32Array(entries.length * 2);
    this.pool.set(entries);
    let at = 0;
    for (let slot = 0; slot < top; slot++) {
      const n = lens[slot]!;
      this.refs[slot] = at;
      this.lens[slot] = n;
      for (let i = 0; i < n; i++) {
        const entry = entries[at + i]!;
        this.push(entry >>> 2, slot * 4 + (entry & 3));
      }
      at += n;
    }
    this.poolUsed = this.poolLive = at;
  }

  /** Bytes held: pool, lists, per-row columns and scratch, and an estimate for the dictionaries' strings and maps. */
  bytes(): number {
    let lists = 0;
    for (const list of this.lists) lists += list.byteLength + 16;
    let strings = 0;
    for (const term of this.terms) strings += 2 * term.length + 60;
    for (const word of this.surface.keys()) strings += 2 * word.length + 60;
    return this.pool.byteLength + lists + this.refs.byteLength + this.lens.byteLength + this.hits.byteLength + this.score.byteLength + this.wordBest.byteLength + strings;
  }
}
