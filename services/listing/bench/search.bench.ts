// Search at 100,000 and 1,000,000 listings. Run with `npm run bench:search` (or
// `npm run bench:search -- 100000` for one size, `-- --saved` for the saved searches alone); it starts and stops its own stores, token
// issuer and listing service processes, and seeds listings spread over the Netherlands (denser in
// the cities) straight into the store. It prints, per size: p50/p95 over loopback HTTP of a
// 25 km search with value, kind and category filters against GET /api/listing/{id}; the service's
// memory per 100,000 listings; its start-up time (the index load); and how soon a listing placed
// through one replica is found on another; and the same 25 km search by members who blocked 500
// others (issue 22) beside their twins who blocked nobody; keyword searches (`q`, issue 23) with
// 25 km and filters, suggestions, the keyword index's bytes per listing and the snapshot load.
// Logs go to .data/bench/listing/logs.
// `--smoke` (test/bench.int.test.ts): a few hundred listings and a few requests each, in a temp
// dir, so the bench keeps running; its figures then say nothing about speed.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { eventRegistry, ListingCardSchema } from '@ruilplein/contracts';
import { freePort, repoRoot, startStores, type Stores } from '@ruilplein/local';
import { connectBus, createEvent, publishEvent, type BlockDoc, type Bus } from '@ruilplein/service-kit';
import { benchRequest, createTestIssuer, runBenchMain, startBenchService, type BenchService, type TestIssuer } from '@ruilplein/service-kit/testing';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { z } from 'zod';
import { CATEGORIES } from '../src/categories/seed.ts';
import type { ListingDoc } from '../src/listings/model.ts';
import type { MemberDoc } from '../src/members/model.ts';
import { savedScenarios } from './saved-scenarios.ts';

const SMOKE = process.argv.includes('--smoke');
/** `--saved`: only the saved-search and demand scenarios (no listings seeded, no service started). */
const SAVED_ONLY = process.argv.includes('--saved');
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (!SIZES.length && !SAVED_ONLY) SIZES.push(...(SMOKE ? [400] : [100_000, 1_000_000]));
/** Sequential requests per measurement. */
const SEARCHES = SMOKE ? 20 : 400;
const FETCHES = SMOKE ? 20 : 400;
const FRESHNESS_ROUNDS = SMOKE ? 1 : 10;
const LISTINGS_PER_OWNER = 5;
const CALLERS = 40;
/** Callers who each blocked BLOCKED_EACH members (the most allowed), beside twins in the same place who blocked nobody. */
const BLOCKERS = SMOKE ? 2 : 10;
const BLOCKED_EACH = 500;
const HOUR = 3600_000;

// A smoke run keeps out of .data/bench, so it never wipes the logs of a real run.
const dataDir = SMOKE ? await mkdtemp(join(tmpdir(), 'ruilplein-bench-search-')) : join(repoRoot, '.data', 'bench', 'listing');
const logDir = join(dataDir, 'logs');
const mainTs = join(repoRoot, 'services/listing/src/main.ts');
const probe = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
const Cards = z.array(ListingCardSchema);

/** Plain node:http with keep-alive and no time limit (a slow store must show as slow, not fail). */
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const call = (url: string, options: Parameters<typeof benchRequest>[2] = {}) => benchRequest(agent, url, options);

let stores: Stores | undefined;
let issuer: TestIssuer | undefined;
let client: mongoose.mongo.MongoClient | undefined;
type Db = mongoose.mongo.Db;
let bus: Bus | undefined;
const running = new Set<Service>();

// ─── Where people live: the larger Dutch towns (latitude, longitude, thousands of inhabitants) and the countryside.

const TOWNS: [string, number, number, number][] = [
  ['Amsterdam', 52.3676, 4.9041, 930], ['Rotterdam', 51.9244, 4.4777, 660], ['Den Haag', 52.0705, 4.3007, 560], ['Utrecht', 52.0907, 5.1214, 370],
  ['Eindhoven', 51.4416, 5.4697, 240], ['Groningen', 53.2194, 6.5665, 235], ['Tilburg', 51.5555, 5.0913, 225], ['Almere', 52.3508, 5.2647, 220],
  ['Breda', 51.5719, 4.7683, 185], ['Nijmegen', 51.8126, 5.8372, 180], ['Apeldoorn', 52.2112, 5.9699, 165], ['Arnhem', 51.9851, 5.8987, 165],
  ['Haarlem', 52.3874, 4.6462, 165], ['Hoofddorp', 52.3025, 4.6889, 160], ['Enschede', 52.2215, 6.8937, 160], ['Amersfoort', 52.1561, 5.3878, 160],
  ['Zaandam', 52.4389, 4.8258, 158], ["'s-Hertogenbosch", 51.6978, 5.3037, 158], ['Zwolle', 52.5168, 6.083, 130], ['Leeuwarden', 53.2012, 5.7999, 125],
  ['Leiden', 52.1601, 4.497, 125], ['Zoetermeer', 52.0607, 4.494, 125], ['Maastricht', 50.8514, 5.691, 120], ['Dordrecht', 51.8133, 4.6901, 120],
  ['Ede', 52.0402, 5.6649, 118], ['Alphen aan den Rijn', 52.1292, 4.6554, 112], ['Alkmaar', 52.6324, 4.7534, 110], ['Emmen', 52.7858, 6.8976, 107],
  ['Delft', 52.0116, 4.3571, 105], ['Venlo', 51.3704, 6.1724, 102], ['Deventer', 52.2661, 6.1552, 101], ['Sittard', 50.9983, 5.8689, 92],
  ['Helmond', 51.4793, 5.657, 92], ['Oss', 51.765, 5.518, 92], ['Amstelveen', 52.3114, 4.8701, 92], ['Hilversum', 52.2292, 5.1669, 91],
  ['Heerlen', 50.8882, 5.9795, 87], ['Purmerend', 52.505, 4.9592, 81], ['Lelystad', 52.5185, 5.4714, 79], ['Roosendaal', 51.5308, 4.4653, 77],
  ['Gouda', 52.0115, 4.7105, 74], ['Hoorn', 52.6425, 5.0597, 74], ['Assen', 52.9925, 6.5649, 68], ['Den Helder', 52.9563, 4.7601, 56], ['Middelburg', 51.4988, 3.6109, 49],
];
/** Land boxes for the quarter of the members who live outside the towns. */
const COUNTRYSIDE: [number, number, number, number][] = [
  [51.3, 52.0, 4.5, 6.0], [52.0, 52.8, 5.6, 7.0], [52.6, 53.4, 5.8, 7.1], [50.8, 51.3, 5.7, 6.0], [51.8, 52.4, 4.4, 5.0],
];
const TOTAL_POPULATION = TOWNS.reduce((sum, t) => sum + t[3], 0);

/** A deterministic generator per seed, so every run seeds the same listings. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), s | 61);
    return ((s ^ (s >>> 14)) >>> 0) / 4294967296;
  };
}
const gaussian = (next: () => number) => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const hex24 = (key: string) => createHash('sha1').update(key).digest('hex').slice(0, 24);

function placeOf(next: () => number): { city: string; latitude: number; longitude: number } {
  if (next() < 0.25) {
    const [lat0, lat1, lon0, lon1] = pick(next, COUNTRYSIDE);
    return { city: 'Platteland', latitude: lat0 + next() * (lat1 - lat0), longitude: lon0 + next() * (lon1 - lon0) };
  }
  let r = next() * TOTAL_POPULATION;
  const town = TOWNS.find((t) => (r -= t[3]) < 0) ?? TOWNS[0]!;
  // Bigger towns spread wider: about 2 km for a small town, 5 km for Amsterdam.
  const spreadKm = 1.5 + Math.sqrt(town[3]) / 8;
  return { city: town[0], latitude: town[1] + (gaussian(next) * spreadKm) / 111, longitude: town[2] + (gaussian(next) * spreadKm) / 68 };
}

// ─── Members and listings.

const ownerId = (k: number) => hex24(`owner-${k}`);
const callerId = (k: number) => hex24(`caller-${k}`);

function member(id: string, seed: number, premium: boolean): MemberDoc {
  const next = random(seed);
  return { _id: id, version: 1, firstName: pick(next, ['Anna', 'Bram', 'Daan', 'Emma', 'Fleur', 'Sem', 'Lotte', 'Noah', 'Julia', 'Finn']), lastName: pick(next, ['de Vries', 'Jansen', 'Bakker', 'Visser', 'Smit', 'Meijer', 'Mulder', 'de Boer']), ...placeOf(next), roles: premium ? ['Premium'] : ['Gebruiker'], activated: true };
}
const ownerDoc = (k: number) => member(ownerId(k), 1_000_003 * k + 7, k % 10 === 0);
const callerDoc = (k: number) => member(callerId(k), 7_000_001 * k + 11, k % 2 === 0);
const blockerId = (k: number) => hex24(`blocker-${k}`);
/** Caller k's twin: the same place and membership, 500 members blocked. */
const blockerDoc = (k: number): MemberDoc => ({ ...callerDoc(k), _id: blockerId(k) });

/**
 * The block projection as the members durable would have written it (the kit's BlockDoc): each
 * blocker blocked the owners nearest in owner order whose listings lie within 50 km (those that
 * would show in the searches), then members without listings up to BLOCKED_EACH.
 */
async function seedBlocks(db: Db, owners: number): Promise<{ nearby: number }> {
  const docs = new Map<string, BlockDoc>();
  const doc = (id: string) => docs.get(id) ?? docs.set(id, { _id: id }).get(id)!;
  let nearby = 0;
  for (let k = 0; k < BLOCKERS; k++) {
    const me = blockerDoc(k);
    const blocked: string[] = [];
    for (let o = 0; o < owners && blocked.length < BLOCKED_EACH; o++) {
      const owner = ownerDoc(o);
      const km = Math.hypot((owner.latitude! - me.latitude!) * 111, (owner.longitude! - me.longitude!) * 68);
      if (km <= 50) blocked.push(owner._id);
    }
    nearby += blocked.length;
    for (let n = 0; blocked.length < BLOCKED_EACH; n++) blocked.push(hex24(`blocked-${k}-${n}`));
    for (const other of blocked) {
      (doc(me._id).out ??= {})[other] = { v: 1, on: true };
      (doc(other).in ??= {})[me._id] = { v: 1, on: true };
    }
  }
  const blocks = db.collection<BlockDoc>('blocks');
  await blocks.deleteMany({});
  const all = [...docs.values()];
  for (let i = 0; i < all.length; i += 2000) await blocks.insertMany(all.slice(i, i + 2000), { ordered: false });
  return { nearby: Math.round(nearby / BLOCKERS) };
}

const NOUNS = ['Stadsfiets', 'Boekenkast', 'Kinderwagen', 'Gitaar', 'Grasmaaier', 'Bankstel', 'Koffiezetapparaat', 'Tent', 'Boormachine', 'Winterjas', 'Legodoos', 'Schommelstoel', 'Platenspeler', 'Naaimachine', 'Bijles wiskunde', 'Hulp bij verhuizen', 'Oppas', 'Tuinonderhoud'];
const WORDS = 'goed onderhouden weinig gebruikt zo goed als nieuw met kleine gebruikssporen ophalen in de buurt ruilen tegen iets leuks werkt prima compleet met handleiding en doos'.split(' ');
/** Keyword searches as typed: plurals, diminutives, typos, compounds' last parts, a word being typed. */
const KEYWORDS = ['fiets', 'fietsen', 'stadsfietsje', 'boekenkasten', 'kast', 'gitaren', 'grasmaier', 'kinderwagen', 'bankstellen', 'koffiezetapparaat', 'tentje', 'boormachien', 'winterjassen', 'lego', 'stoel', 'platenspeler', 'naaimachines', 'bijles', 'oppas', 'tuin', 'weinig gebruikt', 'goed onderhouden fiets', 'handleiding', 'kinderwag'];
/** What the search box asks while one types. */
const PREFIXES = ['f', 'fi', 'fie', 'b', 'bo', 'boe', 'ki', 'kin', 'gi', 'gr', 'gra', 'ko', 'koff', 'te', 'w', 'we', 'st', 'pl', 'na', 'oude fi', 'goed on'];
const FREE = CATEGORIES.filter((c) => !c.isPremium).map((c) => c._id);
const PREMIUM_CATEGORIES = CATEGORIES.filter((c) => c.isPremium).map((c) => c._id);

function listingDoc(i: number, now: number): ListingDoc {
  const next = random(2_654_435_761 * i + 3);
  const k = Math.floor(i / LISTINGS_PER_OWNER);
  const owner = ownerDoc(k);
  const premiumOwner = owner.roles.includes('Premium');
  const service = next() < 0.25;
  const words = Math.floor(8 + next() ** 2 * 200);
  const description = Array.from({ length: words }, () => pick(next, WORDS)).join(' ');
  const photos = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, p) => {
    const id = hex24(`photo-${i}-${p}`);
    return { imageUrl: `/uploads/listings/${id}.webp`, thumbnailUrl: `/uploads/listings/${hex24(`thumb-${i}-${p}`)}.webp`, width: 1600, height: 1200 };
  });
  const categoryIds = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => (premiumOwner && next() < 0.2 ? pick(next, PREMIUM_CATEGORIES) : pick(next, FREE))))];
  const age = next() < 0.003 ? next() * 6 * HOUR : next() * 90 * 24 * HOUR;
  const createdAt = new Date(now - age);
  return {
    _id: hex24(`listing-${i}`),
    ownerId: owner._id,
    title: `${pick(next, NOUNS)} ${pick(next, WORDS)} ${pick(next, WORDS)}`,
    description: description[0]!.toUpperCase() + description.slice(1) + '.',
    listingType: service ? 'service' : 'item',
    acceptsItems: service && next() < 0.5,
    isPremium: premiumOwner && next() < 0.3,
    initialValue: next() < 0.15 ? null : Math.round(Math.exp(next() * Math.log(2000)) * 100) / 100,
    categoryIds,
    photos,
    // What a 10-pixel WebP comes to as a data URL.
    placeholder: `data:image/webp;base64,${createHash('sha512').update(`ph-${i}`).digest('base64').repeat(2).slice(0, 170)}`,
    active: true,
    createdAt,
    updatedAt: createdAt,
    version: 1,
    latitude: owner.latitude!,
    longitude: owner.longitude!,
  };
}

async function seed(db: Db, from: number, to: number, now: number): Promise<number> {
  const started = performance.now();
  const BATCH = 2000;
  const members = db.collection<MemberDoc>('members');
  const listings = db.collection<ListingDoc>('listings');
  if (from === 0) await members.insertMany([...Array.from({ length: CALLERS }, (_, k) => callerDoc(k)), ...Array.from({ length: BLOCKERS }, (_, k) => blockerDoc(k))]);
  const owners = [Math.ceil(from / LISTINGS_PER_OWNER), Math.ceil(to / LISTINGS_PER_OWNER)] as const;
  for (let k = owners[0]; k < owners[1]; k += BATCH) {
    await members.insertMany(Array.from({ length: Math.min(BATCH, owners[1] - k) }, (_, j) => ownerDoc(k + j)), { ordered: false });
  }
  // What placing them through the service would have written: each owner's places and list.
  const counters = db.collection<{ _id: string; version: number; active: Record<string, Date>; listed: Record<string, Date> }>('listing_owners');
  for (let k = owners[0]; k < owners[1]; k += BATCH) {
    await counters.insertMany(
      Array.from({ length: Math.min(BATCH, owners[1] - k) }, (_, j) => {
        const held = Array.from({ length: LISTINGS_PER_OWNER }, (_, n) => listingDoc((k + j) * LISTINGS_PER_OWNER + n, now)).filter((_, n) => (k + j) * LISTINGS_PER_OWNER + n < to);
        const places = Object.fromEntries(held.map((l) => [l._id, l.createdAt]));
        return { _id: ownerId(k + j), version: 1, active: places, listed: places };
      }),
      { ordered: false },
    );
  }
  for (let i = from; i < to; i += BATCH) {
    await listings.insertMany(Array.from({ length: Math.min(BATCH, to - i) }, (_, j) => listingDoc(i + j, now)), { ordered: false });
    if ((i - from) % 100_000 === 0 && i > from) process.stdout.write(`  seeded ${i.toLocaleString('en')} listings (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  return performance.now() - started;
}

// ─── The service under test.

interface Service extends BenchService {
  memory(): Promise<{ rss: number; heapUsed: number; arrayBuffers: number; external: number }>;
}

async function startService(name: string): Promise<Service> {
  const memoryFile = join(dataDir, `${name}-memory.json`);
  const started = await startBenchService({
    name,
    main: mainTs,
    nodeArgs: ['--expose-gc', '--import', probe],
    port: await freePort(),
    logDir,
    // The index of a million listings loads for minutes.
    readyTimeoutMs: 30 * 60_000,
    env: {
      MONGODB_URL: stores!.mongoUrl,
      NATS_URL: stores!.natsUrlFor('listing'),
      REDIS_URL: stores!.redisUrl,
      AUTH_JWKS_URL: issuer!.jwksUrl,
      HOST: '127.0.0.1',
      // Info: the index's own line ("search index loaded": time, source, bytes). Writing a line per
      // request costs some microseconds, the same for every route measured.
      LOG_LEVEL: 'info',
      BENCH_MEMORY_FILE: memoryFile,
    },
  });
  const service: Service = {
    ...started,
    async memory() {
      const before = existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '';
      started.child.kill('SIGUSR2');
      for (let i = 0; i < 100; i++) {
        await sleep(50);
        const now = existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '';
        if (now && now !== before) return JSON.parse(now);
      }
      throw new Error('no memory figures from the service');
    },
    async stop() {
      running.delete(service);
      await started.stop();
    },
  };
  running.add(service);
  return service;
}

// ─── Measuring.

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Timing {
  p50: number;
  p95: number;
  n: number;
  /** Mean cards per answer (for lists). */
  cards?: number;
}

/** Requests one after another (keep-alive), each timed until its body is read. */
async function measure(count: number, request: (i: number) => { path: string; token: string }, url: string): Promise<Timing> {
  const times: number[] = [];
  let cards = 0;
  for (let i = 0; i < count; i++) {
    const { path, token } = request(i);
    const t = performance.now();
    const res = await call(`${url}${path}`, { token });
    const text = res.text;
    times.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    if (text.startsWith('[')) cards += (JSON.parse(text) as unknown[]).length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length, cards: cards / times.length };
}

/** The same requests by two callers, alternating (A, B, A, B…), so both meet the same load: each one's timing. */
async function measurePair(count: number, path: (i: number) => string, tokens: (i: number) => [string, string], url: string): Promise<[Timing, Timing]> {
  const runs = [[], []] as [number[], number[]];
  const cards = [0, 0];
  for (let i = 0; i < count; i++) {
    for (const side of [0, 1] as const) {
      const t = performance.now();
      const res = await call(`${url}${path(i)}`, { token: tokens(i)[side] });
      runs[side].push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${path(i)}: ${res.status} ${res.text.slice(0, 200)}`);
      cards[side]! += (JSON.parse(res.text) as unknown[]).length;
    }
  }
  return runs.map((times, side) => {
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length, cards: cards[side]! / count };
  }) as [Timing, Timing];
}

/** Polls a search on `url` until `id` shows, answering the time it took (ms). */
async function foundWithin(url: string, token: string, query: string, id: string, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const res = await call(`${url}/api/listing${query}`, { token });
    if (res.status === 200 && Cards.parse(JSON.parse(res.text)).some((c) => c.id === id)) return performance.now() - started;
    await sleep(5);
  }
  return Infinity;
}

const ms = (n: number) => (n < 10 ? `${n.toFixed(2)} ms` : n < 10_000 ? `${n.toFixed(0)} ms` : `${(n / 1000).toFixed(1)} s`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const timing = (t: Timing) => `p50 ${ms(t.p50)}, p95 ${ms(t.p95)} (${t.n} requests${t.cards !== undefined && t.cards > 0 ? `, ${t.cards.toFixed(1)} cards each` : ''})`;

/** What the service logged when its index was loaded. */
function indexLine(name: string): { ms: number; source: string; bytes: number; textBytes: number; listings: number } {
  const line = readFileSync(join(logDir, `${name}.log`), 'utf8')
    .split('\n')
    .find((l) => l.includes('"search index loaded"'));
  if (!line) throw new Error(`${name} logged no loaded index`);
  return JSON.parse(line);
}

async function clearSnapshots(db: Db): Promise<void> {
  await db.collection('search_snapshots').deleteMany({});
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith('search_snapshot_')) await db.dropCollection(name);
  }
}

async function waitForSnapshot(db: Db): Promise<{ bytes: number; storedBytes: number; parts: number; afterReadyMs: number }> {
  const started = performance.now();
  for (;;) {
    const head = await db.collection<{ _id: string; bytes: number; storedBytes: number; parts: number }>('search_snapshots').findOne({ kind: 'head' });
    if (head) return { ...head, afterReadyMs: performance.now() - started };
    if (performance.now() - started > 60 * 60_000) throw new Error('no snapshot within an hour');
    await sleep(1000);
  }
}

async function main() {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  console.log(`logs: ${logDir}`);
  stores = await startStores({ dataDir, envPrefix: false });
  issuer = await createTestIssuer();
  client = new mongoose.mongo.MongoClient(stores.mongoUrl, { directConnection: true });
  const db = client.db('listing');
  bus = await connectBus(stores.natsUrl, 'listing-bench');
  const now = Date.now();
  const report: string[] = [];
  /** A line of the summary, shown at once too. */
  const say = (...lines: string[]) => {
    report.push(...lines);
    for (const line of lines) console.log(line);
  };
  say(`search on ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} cores), store: ${stores.kind.mongo}, loopback HTTP, load average at start ${loadavg()[0]!.toFixed(1)}`);

  const callers = Array.from({ length: CALLERS }, (_, k) => callerDoc(k));
  const tokens = await Promise.all(callers.map((c) => issuer!.sign({ sub: c._id, roles: c.roles, ver: 0 }, { expiresIn: '6h' })));
  const premiumCallers = callers.map((c, k) => ({ c, token: tokens[k]! })).filter(({ c }) => c.roles.includes('Premium'));

  // Empty store: what a replica costs without listings.
  const base = SAVED_ONLY ? { rss: 0, heapUsed: 0, arrayBuffers: 0 } : await (async () => {
    const empty = await startService('listing-empty');
    const measured = await empty.memory();
    say(`  no listings: ready in ${ms(empty.readyMs)}, RSS ${mb(measured.rss)}, heap ${mb(measured.heapUsed)}`);
    await empty.stop();
    return measured;
  })();

  let seeded = 0;
  for (const size of SIZES) {
    console.log(`seeding ${size.toLocaleString('en')} listings…`);
    const seedMs = await seed(db, seeded, size, now);
    seeded = size;
    console.log(`  ${(seedMs / 1000).toFixed(0)} s; starting the service…`);

    // Seeding went around the events: a snapshot from before it would miss what it added.
    await clearSnapshots(db);
    const blockSeed = await seedBlocks(db, Math.ceil(size / LISTINGS_PER_OWNER));
    const a = await startService(`listing-a-${size}`);
    const memory = await a.memory();
    const aIndex = indexLine(`listing-a-${size}`);
    const per100k = (n: number) => (n * 100_000) / size;
    say(
      '',
      `${size.toLocaleString('en')} listings (${Math.ceil(size / LISTINGS_PER_OWNER).toLocaleString('en')} owners; seeded in ${ms(seedMs)}):`,
      `  start-up from the store: listening after ${ms(a.listeningMs)}, ready after ${ms(a.readyMs)}; the index loaded in ${ms(aIndex.ms)} (${Math.round((size / aIndex.ms) * 1000).toLocaleString('en')} listings/s from ${aIndex.source}); it holds ${mb(aIndex.bytes)}, ${Math.round(aIndex.bytes / size)} bytes per listing (owners included)`,
      `  memory: RSS ${mb(memory.rss)}, heap ${mb(memory.heapUsed)}, array buffers ${mb(memory.arrayBuffers)}; over an empty replica per 100,000 listings: RSS +${mb(per100k(memory.rss - base.rss))}, heap +${mb(per100k(memory.heapUsed - base.heapUsed))}, array buffers +${mb(per100k(memory.arrayBuffers - base.arrayBuffers))}; ${Math.round((memory.rss - base.rss) / size)} bytes RSS per listing`,
    );

    // A writes a snapshot once loaded (none exists, and the index is large enough): wait for it, so
    // it does not run during the measurements. A smoke run's index is below the service's threshold.
    if (SMOKE) say('  snapshot: none (a smoke run stays below the size the service writes one at)');
    else {
      const snapshot = await waitForSnapshot(db);
      say(
        `  snapshot written by A after loading: ${mb(snapshot.bytes)} (${mb(snapshot.storedBytes)} stored, ${snapshot.parts} parts) ${ms(snapshot.afterReadyMs)} after A was ready`,
      );
    }

    const next = random(size);
    const categoriesOf = () => [pick(next, FREE), pick(next, FREE)].join(',');
    const search25 = (i: number) => {
      const lo = pick(next, [0, 10, 25]);
      const hi = pick(next, [100, 250, 1000]);
      return { path: `/api/listing?distanceKm=25&minValue=${lo}&maxValue=${hi}&listingType=item&categoryIds=${categoriesOf()}`, token: tokens[i % CALLERS]! };
    };
    // Warm up the JIT and the connections.
    await measure(SMOKE ? 5 : 50, search25, a.url);
    const filtered = await measure(SEARCHES, search25, a.url);
    const plain = await measure(SEARCHES, (i) => ({ path: '/api/listing', token: tokens[i % CALLERS]! }), a.url);
    const wide = await measure(SMOKE ? 10 : 100, (i) => ({ path: `/api/listing?distanceKm=200&categoryIds=${categoriesOf()}`, token: tokens[i % CALLERS]! }), a.url);
    const recommended = await measure(SEARCHES, (i) => ({ path: `/api/listing/recommendations?userId=${callers[i % CALLERS]!._id}&radiusKm=${pick(next, [1, 5, 10, 25])}`, token: tokens[i % CALLERS]! }), a.url);
    const categories = await measure(SEARCHES, (i) => ({ path: '/api/category', token: tokens[i % CALLERS]! }), a.url);
    // Listings a premium member may see (all): random ids of the seeded ones.
    // The same searches (one fixed list) by each blocker and its twin, alternating.
    const blockerTokens = await Promise.all(Array.from({ length: BLOCKERS }, (_, k) => issuer!.sign({ sub: blockerId(k), roles: callerDoc(k).roles, ver: 0 }, { expiresIn: '6h' })));
    const pairQueries = Array.from({ length: SEARCHES }, (_, i) => search25(i).path);
    const [withBlocks, without] = await measurePair(SEARCHES, (i) => pairQueries[i]!, (i) => [blockerTokens[i % BLOCKERS]!, tokens[i % BLOCKERS]!], a.url);
    const byId = await measure(FETCHES, (i) => ({ path: `/api/listing/${hex24(`listing-${Math.floor(next() * size)}`)}`, token: premiumCallers[i % premiumCallers.length]!.token }), a.url);
    const byOwner = await measure(FETCHES, (i) => ({ path: `/api/listing/user/${ownerId(Math.floor((next() * size) / LISTINGS_PER_OWNER))}`, token: premiumCallers[i % premiumCallers.length]!.token }), a.url);
    // Keywords (issue 23): what members type, with plurals, diminutives, typos and compounds, over
    // the seeded titles and descriptions; the last word is matched as a prefix, as while typing.
    const keywordQuery = () => encodeURIComponent(pick(next, KEYWORDS));
    const keyword25 = await measure(SEARCHES, (i) => {
      const lo = pick(next, [0, 10, 25]);
      const hi = pick(next, [100, 250, 1000]);
      return { path: `/api/listing?q=${keywordQuery()}&distanceKm=25&minValue=${lo}&maxValue=${hi}&listingType=item&categoryIds=${categoriesOf()}`, token: tokens[i % CALLERS]! };
    }, a.url);
    const keywordOnly = await measure(SEARCHES, (i) => ({ path: `/api/listing?q=${keywordQuery()}&distanceKm=25`, token: tokens[i % CALLERS]! }), a.url);
    const suggested = await measure(SEARCHES, (i) => ({ path: `/api/listing/suggest?q=${encodeURIComponent(pick(next, PREFIXES))}`, token: tokens[i % CALLERS]! }), a.url);
    say(
      `  GET /api/listing, 25 km, value, kind and 2 categories: ${timing(filtered)}  →  p95 ${(filtered.p95 / byId.p95).toFixed(3)}× fetch by id`,
      `  GET /api/listing?q=…, 25 km, value, kind and 2 categories: ${timing(keyword25)}  →  p95 ${(keyword25.p95 / byId.p95).toFixed(3)}× fetch by id (goal ≤ 3× and ≤ 50 ms)`,
      `  GET /api/listing?q=…, 25 km, no other filters:        ${timing(keywordOnly)}`,
      `  GET /api/listing/suggest?q=…:                         ${timing(suggested)}  (goal p95 ≤ 10 ms)`,
      `  keyword index: ${mb(aIndex.textBytes)}, ${Math.round(aIndex.textBytes / size)} bytes per listing (goal ≤ 600 more than without it)`,
      `  GET /api/listing, 25 km, no filters:                 ${timing(plain)}`,
      `  GET /api/listing, 200 km, 2 categories:              ${timing(wide)}`,
      `  GET /api/listing/recommendations (1–25 km):          ${timing(recommended)}`,
      `  GET /api/listing/{id} (the store):                   ${timing(byId)}`,
      `  GET /api/listing/user/{id} (the store, 5 listings):  ${timing(byOwner)}`,
      `  GET /api/category (memory, the HTTP floor):          ${timing(categories)}`,
      `  GET /api/listing, 25 km as above, by a member who blocked ${BLOCKED_EACH} (${blockSeed.nearby} of them nearby with listings): ${timing(withBlocks)}`,
      `  the same searches by the same members' twins who blocked nobody: ${timing(without)}  →  p95 with blocks ${(withBlocks.p95 / without.p95).toFixed(2)}× without (goal ≤ 1.2×)`,
    );

    // Freshness: the index of replica B follows what replica A writes.
    const b = await startService(`listing-b-${size}`);
    const bMemory = await b.memory();
    const bIndex = indexLine(`listing-b-${size}`);
    say(
      `  snapshot load: replica B's index from ${bIndex.source} in ${ms(bIndex.ms)}${bIndex.source === 'snapshot' ? ' (goal ≤ 60 s)' : ''}`,
      `  replica B: listening after ${ms(b.listeningMs)}, ready after ${ms(b.readyMs)}; the index loaded in ${ms(bIndex.ms)} from ${bIndex.source}; RSS ${mb(bMemory.rss)}, heap ${mb(bMemory.heapUsed)}, array buffers ${mb(bMemory.arrayBuffers)}; per 100,000 listings: RSS +${mb(per100k(bMemory.rss - base.rss))}, array buffers +${mb(per100k(bMemory.arrayBuffers - base.arrayBuffers))}`,
    );
    const owner = premiumCallers[0]!;
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2f855a' } }).jpeg().toBuffer();
    const viaEvent: number[] = [];
    const viaCreate: number[] = [];
    const createMs: number[] = [];
    for (let round = 0; round < FRESHNESS_ROUNDS; round++) {
      // The event as the outbox relay publishes it: how soon B's index has it.
      const id = hex24(`fresh-${size}-${round}-${randomUUID()}`);
      const payload = { ...listingDoc(round, Date.now()), _id: id, ownerId: owner.c._id, latitude: owner.c.latitude!, longitude: owner.c.longitude!, createdAt: new Date(), categoryIds: ['hobby'] };
      const event = createEvent(eventRegistry, 'listing.listing.created', {
        id,
        version: 1,
        ownerId: payload.ownerId,
        active: true,
        title: payload.title,
        excerpt: payload.description.slice(0, 200),
        listingType: payload.listingType,
        acceptsItems: payload.acceptsItems,
        isPremium: payload.isPremium,
        initialValue: payload.initialValue,
        categoryIds: payload.categoryIds,
        imageUrl: payload.photos[0]!.imageUrl,
        thumbnailUrl: payload.photos[0]!.thumbnailUrl,
        placeholder: payload.placeholder,
        createdAt: payload.createdAt.toISOString(),
        latitude: payload.latitude,
        longitude: payload.longitude,
      });
      const published = performance.now();
      await publishEvent(bus, event);
      viaEvent.push(performance.now() - published + (await foundWithin(b.url, owner.token, '?categoryIds=hobby&take=5', id)));

      // A listing placed through A's HTTP API (photo, store, outbox relay), searched on B.
      const form = new FormData();
      for (const [k, v] of Object.entries({ title: `Verse listing ${round}`, description: 'Net geplaatst, meteen te vinden.', listingType: 'item', initialValue: '15', CategoryIDs: 'hobby' })) form.append(k, v);
      form.append('images', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'foto.jpg');
      console.log(`  freshness round ${round}: event seen on B after ${ms(viaEvent.at(-1)!)}; placing through A…`);
      const encoded = new Request('http://localhost/', { method: 'POST', body: form });
      const t = performance.now();
      const res = await call(`${a.url}/api/listing/create`, { method: 'POST', token: owner.token, body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type')! });
      const answer = JSON.parse(res.text) as { listing?: { id: string }; message?: string };
      if (res.status !== 201 || !answer.listing) throw new Error(`create: ${res.status} ${answer.message}`);
      const created = performance.now();
      createMs.push(created - t);
      viaCreate.push(await foundWithin(b.url, owner.token, '?categoryIds=hobby&take=5', answer.listing.id));
    }
    const sorted = (list: number[]) => [...list].sort((x, y) => x - y);
    const ev = sorted(viaEvent);
    const cr = sorted(viaCreate);
    say(
      `  freshness, event published → found by a search on replica B: p50 ${ms(percentile(ev, 50))}, max ${ms(ev.at(-1)!)} (${ev.length} listings)`,
      `  freshness, POST /api/listing/create on A answered → found on B: p50 ${ms(percentile(cr, 50))}, max ${ms(cr.at(-1)!)} (${cr.length} listings; the create itself p50 ${ms(percentile(sorted(createMs), 50))})`,
    );
    await b.stop();
    await a.stop();
  }
  await savedScenarios({ db, smoke: SMOKE, say });
  say('', `load average at the end ${loadavg()[0]!.toFixed(1)}`);
  console.log(['', '─'.repeat(100), ...report, ''].join('\n'));
}

await runBenchMain(
  main,
  async () => {
    for (const service of running) await service.stop();
    await bus?.nc.drain().catch(() => undefined);
    await client?.close();
    await issuer?.close();
    await stores?.stop();
  },
  {
    dataDir,
    smoke: SMOKE,
    // A smoke run's temp dir goes with the cleanup: show what the services logged first.
    async onError() {
      if (!SMOKE) return;
      const { readdirSync } = await import('node:fs');
      for (const file of existsSync(logDir) ? readdirSync(logDir) : []) console.error(`--- ${file} ---\n${readFileSync(join(logDir, file), 'utf8').slice(-4000)}`);
    },
  },
);
