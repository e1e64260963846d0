// Text analysis for keyword search, the Dutch way: case and diacritics folded, diminutives taken
// off, the Snowball Dutch stemmer (ported from snowballstem.org's `dutch` algorithm), and a final
// conflation of the spelling alternations it leaves (huis/huizen, brief/brieven, fiets/fietsen).
// One rule decides whether a query word matches an indexed term (`termQuality`), so the engine's
// index and `matches` (saved-search alerts) always agree.

/** Words left out of queries and the index: they would only make every query word harder to match. */
const STOPWORDS = new Set(
  'aan al als bij dan dat de die dit door een en er het hij ik in is je met na naar niet nog of om op over te tot u uit van voor wat we zij zo zou ze the and'.split(' '),
);

/** Longest word indexed (longer runs are cut: URLs, serial numbers). */
const MAX_WORD = 30;
/** Query words used (more are ignored). */
export const MAX_QUERY_WORDS = 8;

/** Lower case, diacritics off (é→e, ë→e, ß stays), and the ligature ij kept as two letters. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Folded words of a text: letters and digits, apostrophes and hyphens split ('kinder-fiets' → kinder, fiets). */
export function words(text: string): string[] {
  return (fold(text).match(/[a-z0-9]+/g) ?? []).map((w) => w.slice(0, MAX_WORD));
}

const isVowel = (c: string | undefined) => c !== undefined && 'aeiouyè'.includes(c);

/** Takes a diminutive ending off (fietsje → fiets, boompje → boom, balletje → bal, autootje → auto, manneke → man). */
export function undiminish(word: string): string {
  let w = word;
  if (w.length < 5) return w;
  if (w.endsWith('jes') || w.endsWith('kes') || w.endsWith('kens')) w = w.slice(0, w.endsWith('kens') ? -2 : -1);
  let base: string | undefined;
  if (w.endsWith('etje') && w.length >= 7 && !isVowel(w.at(-5)) && w.at(-5) === w.at(-6)) base = w.slice(0, -5);
  else if (w.endsWith('mpje')) base = w.slice(0, -3);
  else if (w.endsWith('tje')) {
    const before = w.at(-4);
    // -tje after a vowel, l, n, r or w (stoeltje, autootje); otherwise the t is the word's own (kastje).
    base = isVowel(before) || before === 'l' || before === 'n' || before === 'r' || before === 'w' ? w.slice(0, -3) : w.slice(0, -2);
  } else if (w.endsWith('je')) base = w.slice(0, -2);
  else if ((w.endsWith('ske') || w.endsWith('eke')) && !w.endsWith('lijke')) base = w.slice(0, -3);
  else if (w.endsWith('ke') && w.length >= 6 && w.at(-3) === 's') base = w.slice(0, -2);
  if (base === undefined || base.length < 3) return word;
  // autoo → auto, mann → man (the doubling the diminutive asked for).
  if (base.length >= 4 && base.at(-1) === base.at(-2) && base.at(-1) !== 'e') base = base.slice(0, -1);
  return base;
}

// ─── Snowball Dutch (https://snowballstem.org/algorithms/dutch/stemmer.html).

const V = 'aeiouyè';
const vowel = (w: string, i: number) => i >= 0 && i < w.length && V.includes(w[i]!);

function regions(w: string): { r1: number; r2: number } {
  const after = (from: number) => {
    for (let i = from; i < w.length - 1; i++) if (vowel(w, i) && !vowel(w, i + 1)) return i + 2;
    return w.length;
  };
  const r1 = Math.max(3, after(0));
  return { r1, r2: after(r1) };
}

const undouble = (w: string) => (/(kk|dd|tt)$/.test(w) ? w.slice(0, -1) : w);
const validS = (w: string, i: number) => i >= 0 && !vowel(w, i) && w[i] !== 'j';
const validEn = (w: string, i: number) => i >= 0 && !vowel(w, i) && w.slice(i - 2, i + 1) !== 'gem';

export function snowballDutch(word: string): string {
  let w = word;
  // Y and I as consonants: initial y, y after a vowel, i between vowels.
  let marked = '';
  for (let i = 0; i < w.length; i++) {
    const c = w[i]!;
    if (c === 'y' && (i === 0 || vowel(marked, i - 1))) marked += 'Y';
    else if (c === 'i' && vowel(marked, i - 1) && vowel(w, i + 1)) marked += 'I';
    else marked += c;
  }
  w = marked;
  const { r1, r2 } = regions(w);
  const inR1 = (suffixLength: number) => w.length - suffixLength >= r1;
  const inR2 = (suffixLength: number) => w.length - suffixLength >= r2;
  // Step 1: the longest of heden, ene, en, se, s.
  if (w.endsWith('heden')) {
    if (inR1(5)) w = w.slice(0, -5) + 'heid';
  } else if (w.endsWith('ene') || w.endsWith('en')) {
    const n = w.endsWith('ene') ? 3 : 2;
    if (inR1(n) && validEn(w, w.length - n - 1)) w = undouble(w.slice(0, -n));
  } else if (w.endsWith('se') || w.endsWith('s')) {
    const n = w.endsWith('se') ? 2 : 1;
    if (inR1(n) && validS(w, w.length - n - 1)) w = w.slice(0, -n);
  }
  // Step 2: e.
  let eRemoved = false;
  if (w.endsWith('e') && inR1(1) && !vowel(w, w.length - 2)) {
    w = undouble(w.slice(0, -1));
    eRemoved = true;
  }
  // Step 3a: heid.
  if (w.endsWith('heid') && inR2(4) && w.at(-5) !== 'c') {
    w = w.slice(0, -4);
    if (w.endsWith('en') && inR1(2) && validEn(w, w.length - 3)) w = undouble(w.slice(0, -2));
  }
  // Step 3b: d-suffixes.
  if (w.endsWith('end') || w.endsWith('ing')) {
    if (inR2(3)) {
      w = w.slice(0, -3);
      if (w.endsWith('ig') && inR2(2) && w.at(-3) !== 'e') w = w.slice(0, -2);
      else w = undouble(w);
    }
  } else if (w.endsWith('ig')) {
    if (inR2(2) && w.at(-3) !== 'e') w = w.slice(0, -2);
  } else if (w.endsWith('lijk')) {
    if (inR2(4)) {
      w = w.slice(0, -4);
      if (w.endsWith('e') && inR1(1) && !vowel(w, w.length - 2)) w = undouble(w.slice(0, -1));
    }
  } else if (w.endsWith('baar')) {
    if (inR2(4)) w = w.slice(0, -4);
  } else if (w.endsWith('bar')) {
    if (inR2(3) && eRemoved) w = w.slice(0, -3);
  }
  // Step 4: undouble a vowel before a final consonant (maan → man).
  const n = w.length;
  if (n >= 4 && !vowel(w, n - 4) && !vowel(w, n - 1) && w[n - 1] !== 'I' && 'aeou'.includes(w[n - 2]!) && w[n - 2] === w[n - 3]) w = w.slice(0, -2) + w[n - 1];
  return w.replace(/I/g, 'i').replace(/Y/g, 'y');
}

/**
 * The other reading of a diminutive: only -je(s) off (kaartje → kaart, bootje → boot, lampje →
 * lamp, where `undiminish` reads kaar+tje, boo+tje, lam+pje). Indexed beside the first reading, and
 * tried for a query word too, so whichever is right meets.
 */
export function plainReading(word: string): string | undefined {
  if (word.length < 5 || !/jes?$/.test(word)) return undefined;
  const plain = conflated(word.replace(/jes?$/, ''));
  return plain !== stem(word) ? plain : undefined;
}

/**
 * A word's term: diminutive off, stemmed, then the alternations the stemmer leaves conflated: a
 * final z or v as s or f (huizen/huis, brieven/brief), a doubled final consonant single
 * (tassen/tas), and an s after a consonant dropped (fietsen → fiets, fiets → fiet).
 */
export function stem(word: string): string {
  return conflated(undiminish(word));
}

/** Snowball and the conflation, without taking a diminutive off. */
function conflated(word: string): string {
  if (/^[0-9]/.test(word) || word.length < 3) return word;
  let w = snowballDutch(word);
  if (w.length >= 3) {
    if (w.endsWith('z')) w = w.slice(0, -1) + 's';
    else if (w.endsWith('v')) w = w.slice(0, -1) + 'f';
    if (w.length >= 4 && w.at(-1) === w.at(-2) && !vowel(w, w.length - 1)) w = w.slice(0, -1);
    if (w.length >= 4 && w.endsWith('s') && !vowel(w, w.length - 2)) w = w.slice(0, -1);
  }
  return w;
}

/** A text's words (folded, stopwords left out) and their terms, pairwise (a diminutive twice: both readings). */
export function analyze(text: string): { words: string[]; terms: string[] } {
  const out = { words: [] as string[], terms: [] as string[] };
  for (const w of words(text)) {
    if (STOPWORDS.has(w)) continue;
    out.words.push(w);
    out.terms.push(stem(w));
    const plain = plainReading(w);
    if (plain) {
      out.words.push(w);
      out.terms.push(plain);
    }
  }
  return out;
}

/** Edits a query word may be off by: none below 5 letters, one from 5, two from 9. */
export const typosAllowed = (word: string) => (word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0);

/** A query word, prepared once: its term, and the terms of its one-edit variants when typos are allowed. */
export interface QueryWord {
  word: string;
  term: string;
  /** A diminutive's other reading (plainReading: plantje as plant+je, not plan+tje): as good as `term`. */
  alt: string;
  typos: number;
  /** The last word typed: matched as a prefix too. */
  prefix: boolean;
  /** Terms of the words one edit away (typos ≥ 1). */
  variants: ReadonlySet<string>;
  minVariant: number;
  maxVariant: number;
  /** The variants' last two letters (endKey): a term ending otherwise cannot end in one. */
  variantEnds: ReadonlySet<number>;
}

/** A term's last two letters as one number (no substring made). */
const endKey = (term: string) => term.charCodeAt(term.length - 1) * 65536 + term.charCodeAt(term.length - 2);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function oneEditAway(word: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      out.add(head + c + tail);
      if (tail) out.add(head + c + tail.slice(1));
    }
  }
  out.delete(word);
  return out;
}

/** The words of a query, prepared (stopwords out unless nothing else is left; at most MAX_QUERY_WORDS). */
export function parseQuery(q: string, lastAsPrefix = true): QueryWord[] {
  const key = `${lastAsPrefix ? 1 : 0}${q}`;
  let parsed = parsedQueries.get(key);
  if (!parsed) {
    // The typo variants cost a few hundred stems per word: each query text is prepared once.
    if (parsedQueries.size >= 10_000) parsedQueries.clear();
    parsedQueries.set(key, (parsed = prepare(q, lastAsPrefix)));
  }
  return parsed;
}

const parsedQueries = new Map<string, QueryWord[]>();

function prepare(q: string, lastAsPrefix: boolean): QueryWord[] {
  const all = words(q);
  const kept = all.filter((w) => !STOPWORDS.has(w));
  const list = (kept.length ? kept : all).slice(0, MAX_QUERY_WORDS);
  // A prefix only when the query ends in the word (not after a space: the word is complete).
  const open = lastAsPrefix && /[\p{L}\p{N}]$/u.test(q.trim()) && q === q.trimEnd();
  return list.map((word, i) => {
    const typos = typosAllowed(word);
    const variants = new Set<string>();
    if (typos > 0 && !/^[0-9]+$/.test(word)) for (const v of oneEditAway(word)) variants.add(stem(v));
    let minVariant = Infinity;
    let maxVariant = 0;
    const variantEnds = new Set<number>();
    for (const v of variants) {
      minVariant = Math.min(minVariant, v.length);
      maxVariant = Math.max(maxVariant, v.length);
      if (v.length >= 2) variantEnds.add(endKey(v));
    }
    const term = stem(word);
    return { word, term, alt: plainReading(word) ?? term, typos, prefix: open && i === list.length - 1, variants, minVariant, maxVariant, variantEnds };
  });
}

// Three rows reused by every call (words are at most MAX_WORD letters): no allocation per term compared.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);
const bag = new Int32Array(128);

/** Damerau-Levenshtein (optimal string alignment) distance, or `max + 1` once it exceeds `max`. */

export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // The letters one has and the other lacks bound the distance from below: a quick no for most pairs.
  for (let i = 0; i < a.length; i++) bag[a.charCodeAt(i) & 127]!++;
  for (let i = 0; i < b.length; i++) bag[b.charCodeAt(i) & 127]!--;
  let surplus = 0;
  let lack = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i) & 127;
    if (bag[c]! > 0) surplus += bag[c]!;
    bag[c] = 0;
  }
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i) & 127;
    if (bag[c]! < 0) lack -= bag[c]!;
    bag[c] = 0;
  }
  if (Math.max(surplus, lack) > max) return max + 1;
  const n = b.length;
  if (n + 1 > rowA.length) [rowA, rowB, rowC] = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** How well a term matches a query word (0: not at all). */
export const QUALITY = { exact: 4, compound: 3, prefix: 3, typo: 2 } as const;
/** A compound's head must be this long ('kinderfiets' by 'fiets', not 'pastas' by 'tas'… well, 'pas' is 3). */
const HEAD_MIN = 3;
const PART_MIN = 3;

/**
 * The one text rule: whether `term` (from a listing) matches query word `q`, and how well: the
 * same term; a compound ending in it ('kinderfiet' for 'fiets'); for the last word, a term it begins
 * ('fie' → 'fiet'); a typo: the term of a word one edit away (again also as a compound's end), or the
 * term itself within the allowed edits.
 */
export function termQuality(q: QueryWord, term: string): number {
  const t = q.term;
  if (term === t || term === q.alt) return QUALITY.exact;
  if (t.length >= PART_MIN && term.length - t.length >= HEAD_MIN && term.endsWith(t)) return QUALITY.compound;
  if (q.alt !== t && term.length - q.alt.length >= HEAD_MIN && term.endsWith(q.alt)) return QUALITY.compound;
  // One letter typed is no prefix yet (it would match a twentieth of the dictionary).
  if (q.prefix && q.word.length >= 2 && (term.startsWith(t) || (q.word !== t && term.startsWith(q.word)))) return QUALITY.prefix;
  if (q.typos === 0) return 0;
  if (q.variants.has(term)) return QUALITY.typo;
  if (term.length >= 2 && q.variantEnds.has(endKey(term))) {
    for (let len = Math.max(PART_MIN, q.minVariant); len <= q.maxVariant && term.length - len >= HEAD_MIN; len++) {
      if (q.variants.has(term.slice(-len))) return QUALITY.typo;
    }
  }
  if (editDistance(t, term, q.typos) <= q.typos) return QUALITY.typo;
  return 0;
}

/** Weight of where a term stands: the title counts most, then a category's name, then the description. */
export const FIELD = { excerpt: 0, category: 1, title: 2 } as const;
export const FIELD_WEIGHT = [1, 2, 3] as const;

/**
 * A listing's relevance for a query on its own texts (0: some word matches nowhere): per query
 * word the best of quality × field weight over its terms. The engine computes the same sum over
 * its index.
 */
export function textScore(query: readonly QueryWord[], fields: readonly { field: number; terms: readonly string[] }[]): number {
  let total = 0;
  for (const q of query) {
    let best = 0;
    for (const { field, terms } of fields) {
      for (const term of terms) best = Math.max(best, termQuality(q, term) * FIELD_WEIGHT[field]!);
    }
    if (best === 0) return 0;
    total += best;
  }
  return total;
}
