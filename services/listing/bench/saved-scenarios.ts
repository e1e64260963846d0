// Saved-search alerts and the demand preview at size (issue 23), in this process on the bench's
// store: 100,000 saved searches and 1,000,000 wishlist entries of members spread over the Dutch
// towns, held as each replica holds them (saved/book.ts). Measured: a new listing matched against
// the searches near it and its alerts queued (the match documents with their outbox, the counters)
// p99 (goal ≤ 20 ms); the demand preview's count p95 (goal ≤ 20 ms). search.bench.ts calls it.
import { performance } from 'node:perf_hooks';
import type { SavedSearchFilters } from '@ruilplein/contracts';
import { prepareListing, type ListingState, toVec, type Vec3, type Viewer } from '@ruilplein/search';
import { silentLogger } from '@ruilplein/service-kit/testing';
import type mongoose from 'mongoose';
import { CATEGORIES } from '../src/categories/seed.ts';
import { countDemand } from '../src/demand/count.ts';
import { findMatches, MatchCounters, queueAlerts } from '../src/saved/alerts.ts';
import { InterestBook, type BookSearch } from '../src/saved/book.ts';
import type { SavedMatchDoc, SavedSearchesDoc } from '../src/saved/model.ts';

const TOWNS: [number, number, number][] = [
  [52.3676, 4.9041, 930], [51.9244, 4.4777, 660], [52.0705, 4.3007, 560], [52.0907, 5.1214, 370], [51.4416, 5.4697, 240], [53.2194, 6.5665, 235],
  [51.5555, 5.0913, 225], [52.3508, 5.2647, 220], [51.5719, 4.7683, 185], [51.8126, 5.8372, 180], [52.2112, 5.9699, 165], [52.2215, 6.8937, 160],
  [52.5168, 6.083, 130], [53.2012, 5.7999, 125], [50.8514, 5.691, 120], [52.6324, 4.7534, 110], [52.9925, 6.5649, 68], [51.4988, 3.6109, 49],
];
const TOTAL = TOWNS.reduce((sum, t) => sum + t[2], 0);
const FREE: string[] = CATEGORIES.filter((c) => !c.isPremium).map((c) => c._id);
const EMPTY = new Set<string>();
const NOUNS = ['fiets', 'boekenkast', 'kinderwagen', 'gitaar', 'grasmaaier', 'bankstel', 'koffiezetapparaat', 'tent', 'boormachine', 'winterjas', 'lego', 'schommelstoel', 'platenspeler', 'naaimachine', 'bijles', 'verhuizen', 'oppas', 'tuinonderhoud'];
const TITLES = ['Stadsfiets', 'Boekenkast', 'Kinderwagen', 'Gitaar', 'Grasmaaier', 'Bankstel', 'Koffiezetapparaat', 'Tent', 'Boormachine', 'Winterjas', 'Legodoos', 'Schommelstoel', 'Platenspeler', 'Naaimachine', 'Bijles wiskunde', 'Hulp bij verhuizen', 'Oppas', 'Tuinonderhoud'];

function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 2246822519) + 0x9e3779b9) >>> 0) / 2 ** 32);
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => (n < 10 ? `${n.toFixed(2)} ms` : `${n.toFixed(0)} ms`);

export async function savedScenarios(options: { db: mongoose.mongo.Db; smoke: boolean; say: (...lines: string[]) => void }): Promise<void> {
  const { db, smoke, say } = options;
  const SEARCHES = smoke ? 500 : 100_000;
  const WISHES = smoke ? 2_000 : 1_000_000;
  const ROUNDS = smoke ? 20 : 400;
  const next = random(23);
  const place = (): { latitude: number; longitude: number } => {
    let r = next() * TOTAL;
    const town = TOWNS.find((t) => (r -= t[2]) < 0) ?? TOWNS[0]!;
    const spread = () => (next() + next() + next() - 1.5) * 0.08;
    return { latitude: town[0] + spread(), longitude: town[1] + spread() * 1.6 };
  };
  const vecs = new Map<string, Vec3>();
  const viewers = new Map<string, Viewer>();
  // Wished-for listings' categories, as the search index answers them.
  const listingCategories = new Map<string, string[]>();
  const book = new InterestBook((id) => vecs.get(id), (id) => listingCategories.get(id));
  const member = (id: string) => {
    if (viewers.has(id)) return;
    const at = place();
    vecs.set(id, toVec(at.latitude, at.longitude));
    viewers.set(id, { id, roles: next() < 0.1 ? ['Premium'] : ['Gebruiker'], ...at });
  };

  // Searches: three per member on average, most with a category, some with a value cap or radius.
  const started = performance.now();
  const searchMembers = Math.ceil(SEARCHES / 3);
  for (let m = 0, made = 0; m < searchMembers && made < SEARCHES; m++) {
    const id = `s${m}`;
    member(id);
    const searches: BookSearch[] = [];
    for (let k = 0; k < 3 && made < SEARCHES; k++, made++) {
      // What people save: a category or a word (the search page's two ways in), sometimes a value cap or a radius.
      const filters: SavedSearchFilters = next() < 0.75 ? { categoryIds: [FREE[Math.floor(next() * FREE.length)]!] } : { q: NOUNS[Math.floor(next() * NOUNS.length)]! };
      if (next() < 0.3) filters.maxValue = Math.round(next() * 200);
      if (next() < 0.5) filters.distanceKm = [5, 10, 25][Math.floor(next() * 3)]!;
      searches.push({ id: `${id}-${k}`, name: `Zoek ${k}`, alert: (['direct', 'digest', 'off'] as const)[k % 3]!, createdAt: k, filters });
    }
    book.setSearches(id, 1, searches);
  }
  // Wishlists: five entries per member on average, of listings with one or two categories.
  const wishedListings = Math.ceil(WISHES / 4);
  for (let i = 0; i < wishedListings; i++) listingCategories.set(`w${i}`, [FREE[Math.floor(next() * FREE.length)]!, ...(next() < 0.3 ? [FREE[Math.floor(next() * FREE.length)]!] : [])]);
  for (let i = 0, m = 0; i < WISHES; m++) {
    const id = next() < 0.3 ? `s${Math.floor(next() * searchMembers)}` : `v${m}`;
    member(id);
    for (let k = 0; k < 5 && i < WISHES; k++, i++) book.addWish(id, `w${Math.floor(next() * wishedListings)}`);
  }
  const size = book.size;
  say(`  saved searches: ${size.searches.toLocaleString('en')} searches and ${size.wishes.toLocaleString('en')} wishlist entries of ${size.members.toLocaleString('en')} members in ${size.cells} cells, built in ${ms(performance.now() - started)}`);

  const matched = db.collection<SavedMatchDoc>('bench_saved_matches');
  const searchesCollection = db.collection<SavedSearchesDoc>('bench_saved_searches');
  await matched.deleteMany({});
  const logger = silentLogger();
  const counters = new MatchCounters(searchesCollection, logger);
  const viewerOf = (id: string) => viewers.get(id) ?? { id, roles: [] };
  const now = Date.now();
  const timings: number[] = [];
  const matching: number[] = [];
  let alerted = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const at = place();
    const listing: ListingState = {
      id: `bench-${round}-${now}`,
      version: 1,
      ownerId: 'bench-owner',
      active: true,
      title: TITLES[Math.floor(next() * TITLES.length)]!,
      excerpt: '',
      listingType: 'item',
      acceptsItems: false,
      isPremium: false,
      initialValue: Math.round(next() * 300),
      categoryIds: [FREE[Math.floor(next() * FREE.length)]!],
      imageUrl: '',
      thumbnailUrl: '',
      placeholder: '',
      // Past the head start: every member near it may be alerted (the larger case).
      createdAt: now - 7 * 3600_000,
      ...at,
    };
    const t = performance.now();
    const prepared = prepareListing(listing);
    const found = findMatches(book, prepared, viewerOf, EMPTY, now);
    matching.push(performance.now() - t);
    const queued = await queueAlerts({ matched, logger }, listing, found, prepared.at, now, 'open');
    timings.push(performance.now() - t);
    alerted += queued.alerted.length;
    counters.add(queued.alerted);
  }
  // The counters the service raises in the background, once a second: here all rounds' at once.
  const flushStarted = performance.now();
  await counters.flush();
  const flushMs = performance.now() - flushStarted;
  timings.sort((a, b) => a - b);
  matching.sort((a, b) => a - b);
  say(
    `  new listing matched against the saved searches near it (in memory): p50 ${ms(percentile(matching, 50))}, p99 ${ms(percentile(matching, 99))}`,
    `  new listing matched + alerts queued (${ROUNDS} listings, ${(alerted / ROUNDS).toFixed(1)} members alerted each): p50 ${ms(percentile(timings, 50))}, p99 ${ms(percentile(timings, 99))} (goal p99 ≤ 20 ms)`,
    `  new-match counters raised afterwards in the background: ${ROUNDS} listings' in one flush of ${ms(flushMs)}`,
  );
  await matched.drop().catch(() => undefined);

  const demand: number[] = [];
  let counted = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const here = place();
    const categoryIds = [FREE[Math.floor(next() * FREE.length)]!];
    const t = performance.now();
    const answer = countDemand({ book, at: toVec(here.latitude, here.longitude), caller: 'bench-caller', hidden: EMPTY, query: { categoryIds, q: undefined, distanceKm: 10 } });
    demand.push(performance.now() - t);
    counted += answer.members;
  }
  demand.sort((a, b) => a - b);
  say(`  demand preview within 10 km (${ROUNDS} places, ${(counted / ROUNDS).toFixed(0)} members each): p50 ${ms(percentile(demand, 50))}, p95 ${ms(percentile(demand, 95))} (goal p95 ≤ 20 ms)`);
}
