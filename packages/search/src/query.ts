import {
  PREMIUM_HEAD_START_HOURS,
  RECOMMENDATION_PAGE_SIZE,
  SEARCH_DEFAULT_DISTANCE_KM,
  type BarterMode,
  type Category,
  type ListingCard,
  type ListingType,
} from '@ruilplein/contracts';
import { boundsOf, chord2ForKm, kmForChord2, roundKm, type Vec3 } from './geo.ts';
import { trendingScore, type InterestBook } from './interest.ts';
import { ACCEPTS_ITEMS, latCell, LIVE, lonCell, PLACED, PREMIUM, SERVICE, type ListingIndex } from './listings.ts';
import type { MemberTable, Searcher } from './members.ts';
import { topK } from './order.ts';
import { analyze, FIELD, FIELD_WEIGHT, parseQuery, termQuality, words as foldedWords, type QueryWord } from './text.ts';
import type { TextHits } from './textindex.ts';

/** What the engine needs of a category to match its name: the category cache's entries will do. */
export type CategoryNames = ReadonlyMap<string, { name: string }>;

export const HEAD_START_MS = PREMIUM_HEAD_START_HOURS * 3600_000;

/** The search page's filters, as the route's schema parsed them. */
export interface SearchFilters {
  page: number;
  take: number;
  distanceKm?: number;
  minValue?: number;
  maxValue?: number;
  /** Only premium listings. */
  premium: boolean;
  /** Any of these. */
  categoryIds: readonly string[];
  listingType?: ListingType;
  barterMode?: BarterMode;
  /**
   * Keywords (issue 23): every word must match the title, the excerpt or a category's name (text.ts);
   * the answer is then ordered by relevance, distance, freshness.
   */
  q?: string;
  /**
   * Members whose listings the caller does not get (never from the request: the service fills it,
   * e.g. for members one has blocked). `matches` honours it too.
   */
  excludeOwners?: ReadonlySet<string>;
}

export type KeywordPath = 'auto' | 'index' | 'rows';

/** A query's words, and per word the categories whose name matches it. */
interface Keywords {
  query: QueryWord[];
  matched: ({ mask: Uint32Array; value: number } | null)[];
}

/** One scan over the candidate rows; every field narrows. */
interface Scan {
  center?: Vec3;
  /** Squared chord of the radius. */
  maxC2: number;
  /** Flags that must be set (`need`) to the given bits (`bits`). */
  need: number;
  bits: number;
  minCents: number;
  maxCents: number;
  /** Whether a listing without a value passes the value range. */
  noValuePasses: boolean;
  /** null: any category. */
  catMask: Uint32Array | null;
  /** The caller may see premium-only and new listings. */
  premium: boolean;
  /** The caller's row among the members (their own listings are always visible); -1 when unknown. */
  viewer: number;
  /** Listings created after this are new: premium callers and their owner only. */
  newAfter: number;
  /** Leave out this member's listings (recommendations); -1: none. */
  excludeOwner: number;
  /** Leave out these members' listings (their rows among the members); null: none. */
  excludeOwners: ReadonlySet<number> | null;
  /** Keywords: the rows' hits, and per word the categories whose name matches it. */
  text: TextScan | null;
}

interface TextScan {
  hits: TextHits;
  /** The rows' words are checked as they are gathered (`beginRows`), not beforehand from postings. */
  rowWise: boolean;
  /** All words' bits. */
  full: number;
  /** Per word: categories whose name matches it (null: none), and what such a match scores. */
  catMasks: (Uint32Array | null)[];
  catValues: number[];
}

export interface Page {
  /** Rows in answer order. */
  slots: Int32Array;
  /** Squared chord to each, NaN without a place. */
  c2: Float64Array;
}

/**
 * Search and recommendations over the in-memory index: a scan of the grid cells that overlap the
 * circle (every cell without a place to search from), the filters on typed arrays, then the top of
 * the order by a bounded heap. Nothing here waits on the store.
 */
export class SearchEngine {
  readonly index: ListingIndex;
  readonly members: MemberTable;
  readonly interest: InterestBook;
  private found = new Int32Array(4096);
  private foundC2 = new Float64Array(4096);

  /** How keywords meet the other filters: by cost (`auto`), or always one way (tests compare the two). */
  private readonly keywordPath: KeywordPath;

  constructor(index: ListingIndex, members: MemberTable, interest: InterestBook, keywordPath: KeywordPath = 'auto') {
    this.index = index;
    this.members = members;
    this.interest = interest;
    this.keywordPath = keywordPath;
  }

  searcher(userId: string, now: number): Searcher {
    return this.members.searcher(userId, now);
  }

  /**
   * GET /api/listing: newest first (then a per-id tie-break), `take` from `(page-1)·take`. With
   * keywords (`filters.q`), matching ones only, by relevance, then distance (as shown, 0.1 km), then
   * newest; `categories` names the categories (their names match keywords too).
   */
  search(searcher: Searcher, filters: SearchFilters, now: number, categories?: CategoryNames): Page {
    const query = filters.q ? parseQuery(filters.q) : [];
    return this.searchScan(searcher, filters, now, query.length ? { query, matched: query.map((q) => this.categoryMatch(q, categories)) } : null);
  }

  /** Completions of the query's last word (folded), with the words before it: up to SEARCH_SUGGESTIONS_MAX. */
  suggest(q: string): string[] {
    if (!/[\p{L}\p{N}]$/u.test(q)) return [];
    const typed = foldedWords(q);
    const last = typed.pop();
    if (!last) return [];
    const head = typed.length ? `${typed.join(' ')} ` : '';
    return this.index.keywords.completions(last).map((word) => head + word);
  }

  private categoryTerms = new Map<string, string[]>();

  /** The categories whose name matches a query word, and the best such match's score. */
  private categoryMatch(q: QueryWord, categories?: CategoryNames): { mask: Uint32Array; value: number } | null {
    let mask: Uint32Array | null = null;
    let value = 0;
    for (const [id, { name }] of categories ?? []) {
      const bit = this.index.categoryBitOf(id, false);
      if (bit < 0) continue;
      let terms = this.categoryTerms.get(name);
      if (!terms) this.categoryTerms.set(name, (terms = analyze(name).terms));
      let best = 0;
      for (const term of terms) best = Math.max(best, termQuality(q, term));
      if (!best) continue;
      (mask ??= new Uint32Array(this.index.words))[bit >> 5]! |= 1 << (bit & 31);
      value = Math.max(value, best * FIELD_WEIGHT[FIELD.category]);
    }
    return mask && { mask, value };
  }

  private searchScan(searcher: Searcher, filters: SearchFilters, now: number, keywords: Keywords | null): Page {
    const scan = this.baseScan(searcher, now, filters.excludeOwners);
    if (searcher.place) {
      scan.center = searcher.place;
      scan.maxC2 = chord2ForKm(filters.distanceKm ?? SEARCH_DEFAULT_DISTANCE_KM);
    }
    if (filters.minValue !== undefined && filters.minValue > 0) {
      scan.minCents = Math.round(filters.minValue * 100);
      scan.noValuePasses = false;
    }
    if (filters.maxValue !== undefined) scan.maxCents = Math.round(filters.maxValue * 100);
    if (filters.premium) {
      // Premium listings are shown to premium callers only (their own aside).
      scan.need |= PREMIUM;
      scan.bits |= PREMIUM;
    }
    if (filters.categoryIds.length) {
      const mask = new Uint32Array(this.index.words);
      for (const id of filters.categoryIds) {
        const bit = this.index.categoryBitOf(id, false);
        if (bit >= 0) mask[bit >> 5]! |= 1 << (bit & 31);
      }
      if (mask.every((w) => w === 0)) return empty();
      scan.catMask = mask;
    }
    if (filters.listingType) {
      scan.need |= SERVICE;
      if (filters.listingType === 'service') scan.bits |= SERVICE;
    }
    if (filters.barterMode === 'services_only' || filters.barterMode === 'services_or_items') {
      if (filters.listingType === 'item') return empty();
      scan.need |= SERVICE | ACCEPTS_ITEMS;
      scan.bits |= SERVICE | (filters.barterMode === 'services_or_items' ? ACCEPTS_ITEMS : 0);
    }
    if (keywords) return this.keywordScan(scan, keywords, (filters.page - 1) * filters.take, filters.take);
    const n = this.gather(scan);
    const { created, keys } = this.index;
    const found = this.found;
    const newer = (a: number, b: number) => {
      const sa = found[a]!;
      const sb = found[b]!;
      const ca = created[sa]!;
      const cb = created[sb]!;
      if (ca !== cb) return ca > cb;
      const ka = keys[sa]!;
      const kb = keys[sb]!;
      return ka !== kb ? ka > kb : this.index.id(sa) > this.index.id(sb);
    };
    return this.cut(n, (filters.page - 1) * filters.take, filters.take, newer);
  }

  /**
   * Keywords with the other filters: from the index's postings (the rarest required word's rows are
   * the candidates), or, when the grid cells within the radius hold fewer rows than those postings
   * (a common word, a city's radius), from the cells with every other filter first and the words
   * checked in the few rows left. Both give the same rows and scores.
   */
  private keywordScan(scan: Scan, { query, matched }: Keywords, offset: number, take: number): Page {
    const keywords = this.index.keywords;
    const withBest = matched.map((m) => m !== null);
    const rowWise = this.keywordPath === 'auto' ? scan.center !== undefined && this.rowsCheaper(scan, keywords.drivingCost(query, withBest)) : this.keywordPath === 'rows';
    const rows = rowWise ? keywords.beginRows(query, withBest) : null;
    const hits = rows ?? keywords.evaluate(query, withBest);
    scan.text = { hits, rowWise: rows !== null, full: (1 << query.length) - 1, catMasks: matched.map((m) => m?.mask ?? null), catValues: matched.map((m) => m?.value ?? 0) };
    try {
      const n = this.gather(scan);
      return this.cut(n, offset, take, this.relevance(n, scan.text));
    } finally {
      keywords.reset(hits);
    }
  }

  /**
   * Whether checking the rows within reach beats reading the postings, by a rough count of memory
   * touched: one unit per posting read (its row gathered after), about 1.3 per row within reach when
   * a category, value or kind filter lets few through to the word check. Without such a filter the
   * postings won for every query measured at a million listings (most rows reach the word check).
   */
  private rowsCheaper(scan: Scan, postings: number): boolean {
    const narrowed = scan.catMask !== null || scan.need !== LIVE || scan.minCents > -Infinity || scan.maxCents < Infinity;
    return narrowed && this.rowsInReach(scan) * 1.3 < postings;
  }

  /** Rows in the grid cells that `scan`'s circle overlaps. */
  private rowsInReach(scan: Scan): number {
    let rows = 0;
    for (const i of this.cellsFor(scan)) rows += this.index.cells[i]!.n;
    return rows;
  }

  /** Every keyword matched: through the index, or by the name of one of the row's categories. */
  private matchesText(slot: number, text: TextScan): boolean {
    const { cats, words } = this.index;
    let m = text.hits.hits[slot]!;
    for (let w = 0; m !== text.full && w < text.catMasks.length; w++) {
      const mask = text.catMasks[w];
      if (!mask || m & (1 << w)) continue;
      for (let x = 0; x < words; x++) {
        if (cats[slot * words + x]! & mask[x]!) {
          m |= 1 << w;
          break;
        }
      }
    }
    return m === text.full;
  }

  /**
   * 'Trending in je buurt': within `radiusKm` of the caller, not their own; premium first
   * (premium-only listings and those of premium members), then by trending score (interest in the
   * last 14 days plus newness, interest.ts), then newest. Nothing without a place of one's own.
   * `excludeOwners` as in SearchFilters.
   */
  recommendations(searcher: Searcher, radiusKm: number, page: number, now: number, excludeOwners?: ReadonlySet<string>): Page {
    if (!searcher.place) return empty();
    const scan = this.baseScan(searcher, now, excludeOwners);
    scan.center = searcher.place;
    scan.maxC2 = chord2ForKm(radiusKm);
    // Never one's own (an unknown caller, -1, owns nothing).
    scan.excludeOwner = scan.viewer;
    const n = this.gather(scan);
    const { created, keys, flags, owners } = this.index;
    const found = this.found;
    const tier = new Uint8Array(n);
    const score = new Float64Array(n);
    // Owners list several listings each: the membership rule once per owner.
    const premiumOwner = new Map<number, boolean>();
    const isPremiumOwner = (owner: number) => {
      let premium = premiumOwner.get(owner);
      if (premium === undefined) premiumOwner.set(owner, (premium = this.members.premiumAt(owner, now)));
      return premium;
    };
    for (let p = 0; p < n; p++) {
      const slot = found[p]!;
      tier[p] = flags[slot]! & PREMIUM || isPremiumOwner(owners[slot]!) ? 1 : 0;
      score[p] = trendingScore(this.interest.interest(slot, now), now - created[slot]!);
    }
    const better = (a: number, b: number) => {
      if (tier[a] !== tier[b]) return tier[a]! > tier[b]!;
      if (score[a] !== score[b]) return score[a]! > score[b]!;
      const sa = found[a]!;
      const sb = found[b]!;
      if (created[sa] !== created[sb]) return created[sa]! > created[sb]!;
      return keys[sa] !== keys[sb] ? keys[sa]! > keys[sb]! : this.index.id(sa) > this.index.id(sb);
    };
    return this.cut(n, (page - 1) * RECOMMENDATION_PAGE_SIZE, RECOMMENDATION_PAGE_SIZE, better);
  }

  /** The keyword order over `found[0…n)`: relevance, then distance as shown, then newest, then the id tie-break. */
  private relevance(n: number, text: TextScan): (a: number, b: number) => boolean {
    const { created, keys, cats, words } = this.index;
    const found = this.found;
    const score = new Float64Array(n);
    const km = new Float64Array(n);
    for (let p = 0; p < n; p++) {
      const slot = found[p]!;
      let s = text.hits.score[slot]!;
      text.catMasks.forEach((mask, w) => {
        if (!mask) return;
        let inCategory = false;
        for (let x = 0; x < words && !inCategory; x++) inCategory = (cats[slot * words + x]! & mask[x]!) !== 0;
        s += Math.max(text.hits.best[w]![slot]!, inCategory ? text.catValues[w]! : 0);
      });
      score[p] = s;
      const c2 = this.foundC2[p]!;
      km[p] = Number.isNaN(c2) ? Infinity : roundKm(kmForChord2(c2));
    }
    return (a, b) => {
      if (score[a] !== score[b]) return score[a]! > score[b]!;
      if (km[a] !== km[b]) return km[a]! < km[b]!;
      const sa = found[a]!;
      const sb = found[b]!;
      if (created[sa] !== created[sb]) return created[sa]! > created[sb]!;
      return keys[sa] !== keys[sb] ? keys[sa]! > keys[sb]! : this.index.id(sa) > this.index.id(sb);
    };
  }

  /** The answer's cards. */
  cards(page: Page, categories: ReadonlyMap<string, Category>): ListingCard[] {
    const { index, members } = this;
    const out: ListingCard[] = [];
    for (let i = 0; i < page.slots.length; i++) {
      const slot = page.slots[i]!;
      const c2 = page.c2[i]!;
      const text = index.card(slot);
      const f = index.flags[slot]!;
      const cents = index.values[slot]!;
      out.push({
        id: text.id,
        title: text.title,
        description: text.excerpt,
        imageUrl: text.imageUrl,
        thumbnailUrl: text.thumbnailUrl,
        placeholder: text.placeholder,
        listingType: f & SERVICE ? 'service' : 'item',
        acceptsItems: (f & ACCEPTS_ITEMS) !== 0,
        isPremium: (f & PREMIUM) !== 0,
        initialValue: cents < 0 ? null : cents / 100,
        createdAt: new Date(index.created[slot]!).toISOString(),
        isActive: true,
        listingCategories: index.categoryIdsOf(slot).flatMap((id) => categories.get(id) ?? []),
        distanceInKm: Number.isNaN(c2) ? null : roundKm(kmForChord2(c2)),
        user: members.owner(index.owners[slot]!),
      });
    }
    return out;
  }

  private baseScan(searcher: Searcher, now: number, excludeOwners?: ReadonlySet<string>): Scan {
    // Members never seen own no listing here: only known ones need a row.
    let excluded: Set<number> | null = null;
    for (const id of excludeOwners ?? []) {
      const slot = this.members.find(id);
      if (slot >= 0) (excluded ??= new Set()).add(slot);
    }
    return {
      maxC2: Infinity,
      need: LIVE,
      bits: LIVE,
      minCents: -Infinity,
      maxCents: Infinity,
      noValuePasses: true,
      catMask: null,
      premium: searcher.premium,
      viewer: this.members.find(searcher.id),
      newAfter: now - HEAD_START_MS,
      excludeOwner: -1,
      excludeOwners: excluded,
      text: null,
    };
  }

  /** Rows passing `scan` into `found` (and their squared chords into `foundC2`); answers how many. */
  private gather(scan: Scan): number {
    const { flags, values, created, owners, cats, xs, ys, zs, words, cells, keywords } = this.index;
    const { need, bits, minCents, maxCents, noValuePasses, catMask, premium, viewer, newAfter, excludeOwner, excludeOwners, maxC2 } = scan;
    const center = scan.center;
    const text = scan.text;
    const cx = center?.x ?? 0;
    const cy = center?.y ?? 0;
    const cz = center?.z ?? 0;
    let n = 0;
    // Keywords of which one matches no category name: only the rows the index found, else the cells.
    const sources: { slots: Int32Array; n: number }[] = text?.hits.driven && !text.rowWise ? [{ slots: text.hits.touched, n: text.hits.count }] : Array.from(this.cellsFor(scan), (i) => cells[i]!);
    for (const source of sources) {
      const list = source.slots;
      for (let i = 0; i < source.n; i++) {
        const slot = list[i]!;
        const f = flags[slot]!;
        if ((f & need) !== bits) continue;
        if (center && !(f & PLACED)) continue;
        const cents = values[slot]!;
        if (cents < 0 ? !noValuePasses : cents < minCents || cents > maxCents) continue;
        if (catMask) {
          let hit = false;
          for (let w = 0; w < words && !hit; w++) hit = (cats[slot * words + w]! & catMask[w]!) !== 0;
          if (!hit) continue;
        }
        // The place after value and categories: three columns, read only for rows those let through.
        let c2 = NaN;
        if (center) {
          const dx = xs[slot]! - cx;
          const dy = ys[slot]! - cy;
          const dz = zs[slot]! - cz;
          c2 = dx * dx + dy * dy + dz * dz;
          if (c2 > maxC2) continue;
        }
        if (text && !text.rowWise && !this.matchesText(slot, text)) continue;
        const owner = owners[slot]!;
        if (owner === excludeOwner || (excludeOwners !== null && excludeOwners.has(owner))) continue;
        if (!premium && owner !== viewer && (f & PREMIUM || created[slot]! > newAfter)) continue;
        if (text?.rowWise) {
          // Last: the costliest check, for the rows every other filter let through.
          keywords.scoreRow(slot, text.hits);
          if (!this.matchesText(slot, text)) continue;
        }
        if (n === this.found.length) this.growFound();
        this.found[n] = slot;
        this.foundC2[n] = c2;
        n++;
      }
    }
    return n;
  }

  private growFound(): void {
    const found = new Int32Array(this.found.length * 2);
    found.set(this.found);
    const c2 = new Float64Array(this.foundC2.length * 2);
    c2.set(this.foundC2);
    this.found = found;
    this.foundC2 = c2;
  }

  /** Indexes of the cells to scan: those overlapping the circle's bounds, or all of them without a centre. */
  private *cellsFor(scan: Scan): Generator<number> {
    const { cells } = this.index;
    const center = scan.center;
    if (!center) {
      for (let i = 0; i < cells.length; i++) yield i;
      return;
    }
    const latitude = (Math.asin(Math.max(-1, Math.min(1, center.z))) * 180) / Math.PI;
    const longitude = (Math.atan2(center.y, center.x) * 180) / Math.PI;
    const km = kmForChord2(scan.maxC2);
    const b = boundsOf(latitude, longitude, km);
    const lat0 = latCell(b.minLat);
    const lat1 = latCell(b.maxLat);
    const wraps = b.minLon < -180 || b.maxLon > 180;
    const lon0 = wraps ? lonCell(-180) : lonCell(b.minLon);
    const lon1 = wraps ? lonCell(180) : lonCell(b.maxLon);
    const positions = (lat1 - lat0 + 1) * (lon1 - lon0 + 1);
    // A wide circle over a sparse grid: walk the cells that exist instead of every position.
    if (positions > cells.length) {
      for (let i = 1; i < cells.length; i++) {
        const c = cells[i]!;
        if (c.lat >= lat0 && c.lat <= lat1 && c.lon >= lon0 && c.lon <= lon1) yield i;
      }
      return;
    }
    for (let lat = lat0; lat <= lat1; lat++) {
      for (let lon = lon0; lon <= lon1; lon++) {
        const i = this.index.cellIndex(lat, lon);
        if (i !== undefined) yield i;
      }
    }
  }

  /** Positions `offset`…`offset+take` of the order, as rows and chords. */
  private cut(n: number, offset: number, take: number, better: (a: number, b: number) => boolean): Page {
    if (offset >= n) return empty();
    const best = topK(n, offset + take, better);
    const count = Math.max(0, best.length - offset);
    const slots = new Int32Array(count);
    const c2 = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const p = best[offset + i]!;
      slots[i] = this.found[p]!;
      c2[i] = this.foundC2[p]!;
    }
    return { slots, c2 };
  }
}

const empty = (): Page => ({ slots: new Int32Array(0), c2: new Float64Array(0) });
