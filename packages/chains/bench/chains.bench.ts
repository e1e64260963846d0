// The swap-chain matcher at platform size (issue 24's goals): `npm run bench:chains`. Synthetic:
// 100,000 members clustered around the larger Dutch towns (a quarter in the countryside), 1,000,000
// listings at their owners' places, 2,000,000 wishes for listings of members in the same town or
// countryside area. It prints: the load (the store replayed with searches held back), the full
// computation, a new wish → its chains found (p50/p99 over 1000 new wishes), a member's suggestions,
// memory (heap, array buffers, RSS, bytes per wish) and the cycles found.
// `--smoke` (test/bench-smoke.unit.test.ts): 1,000 members, 10,000 listings, 20,000 wishes, 100 new
// wishes, in seconds; its figures then say nothing about speed.
import { performance } from 'node:perf_hooks';
import { ChainEngine } from '../src/index.ts';

const SMOKE = process.argv.includes('--smoke');
const MEMBERS = SMOKE ? 1_000 : 100_000;
const LISTINGS = SMOKE ? 10_000 : 1_000_000;
const WISHES = SMOKE ? 20_000 : 2_000_000;
const NEW_WISHES = SMOKE ? 100 : 1_000;
const NOW = Date.UTC(2026, 10, 26, 12);
const DAY = 86_400_000;

// Where people live: the larger Dutch towns (latitude, longitude, thousands of inhabitants), as
// services/listing/bench/search.bench.ts has them, and the countryside.
const TOWNS: [number, number, number][] = [
  [52.3676, 4.9041, 930], [51.9244, 4.4777, 660], [52.0705, 4.3007, 560], [52.0907, 5.1214, 370], [51.4416, 5.4697, 240], [53.2194, 6.5665, 235],
  [51.5555, 5.0913, 225], [52.3508, 5.2647, 220], [51.5719, 4.7683, 185], [51.8126, 5.8372, 180], [52.2112, 5.9699, 165], [51.9851, 5.8987, 165],
  [52.3874, 4.6462, 165], [52.3025, 4.6889, 160], [52.2215, 6.8937, 160], [52.1561, 5.3878, 160], [52.4389, 4.8258, 158], [51.6978, 5.3037, 158],
  [52.5168, 6.083, 130], [53.2012, 5.7999, 125], [52.1601, 4.497, 125], [52.0607, 4.494, 125], [50.8514, 5.691, 120], [51.8133, 4.6901, 120],
  [52.0402, 5.6649, 118], [52.1292, 4.6554, 112], [52.6324, 4.7534, 110], [52.7858, 6.8976, 107], [52.0116, 4.3571, 105], [51.3704, 6.1724, 102],
  [52.2661, 6.1552, 101], [50.9983, 5.8689, 92], [51.4793, 5.657, 92], [51.765, 5.518, 92], [52.3114, 4.8701, 92], [52.2292, 5.1669, 91],
  [50.8882, 5.9795, 87], [52.505, 4.9592, 81], [52.5185, 5.4714, 79], [51.5308, 4.4653, 77], [52.0115, 4.7105, 74], [52.6425, 5.0597, 74],
  [52.9925, 6.5649, 68], [52.9563, 4.7601, 56], [51.4988, 3.6109, 49],
];
const COUNTRYSIDE: [number, number, number, number][] = [
  [51.3, 52.0, 4.5, 6.0], [52.0, 52.8, 5.6, 7.0], [52.6, 53.4, 5.8, 7.1], [50.8, 51.3, 5.7, 6.0], [51.8, 52.4, 4.4, 5.0],
];
const TOTAL_POPULATION = TOWNS.reduce((sum, t) => sum + t[2], 0);

/** A deterministic generator per seed, so every run builds the same world. */
function random(seed: number) {
  // mulberry32: its state only counts up, so it does not fall into a short cycle over millions of draws.
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(24);
const gaussian = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
const int = (n: number) => Math.floor(next() * n);
/** 24 hex digits, like the platform's ids. */
const memberId = (k: number) => `a${k.toString(16).padStart(23, '0')}`;
const listingId = (k: number) => `b${k.toString(16).padStart(23, '0')}`;

// ─── The world: members with an area (a town or a countryside box), listings grouped by owner.

const area = new Int32Array(MEMBERS);
const lat = new Float64Array(MEMBERS);
const lon = new Float64Array(MEMBERS);
for (let k = 0; k < MEMBERS; k++) {
  if (next() < 0.25) {
    const box = int(COUNTRYSIDE.length);
    const [lat0, lat1, lon0, lon1] = COUNTRYSIDE[box]!;
    area[k] = TOWNS.length + box;
    lat[k] = lat0 + next() * (lat1 - lat0);
    lon[k] = lon0 + next() * (lon1 - lon0);
    continue;
  }
  let r = next() * TOTAL_POPULATION;
  let t = 0;
  while ((r -= TOWNS[t]![2]) >= 0 && t < TOWNS.length - 1) t++;
  const town = TOWNS[t]!;
  // Bigger towns spread wider: about 2 km for a small town, 5 km for Amsterdam.
  const spreadKm = 1.5 + Math.sqrt(town[2]) / 8;
  area[k] = t;
  lat[k] = town[0] + (gaussian() * spreadKm) / 111;
  lon[k] = town[1] + (gaussian() * spreadKm) / 68;
}
const areas = TOWNS.length + COUNTRYSIDE.length;
const areaMembers: number[][] = Array.from({ length: areas }, () => []);
for (let k = 0; k < MEMBERS; k++) areaMembers[area[k]!]!.push(k);
// Listing k belongs to owner[k]; byOwner lists each member's listings.
const owner = new Int32Array(LISTINGS);
const byOwner: number[][] = Array.from({ length: MEMBERS }, () => []);
for (let k = 0; k < LISTINGS; k++) {
  owner[k] = int(MEMBERS);
  byOwner[owner[k]!]!.push(k);
}
/** A listing of another member in the wisher's area (or -1 when that member has none). */
function wanted(wisher: number): number {
  const peers = areaMembers[area[wisher]!]!;
  const o = peers[int(peers.length)]!;
  const list = byOwner[o]!;
  return o === wisher || !list.length ? -1 : list[int(list.length)]!;
}

const engine = new ChainEngine();
const memory = () => process.memoryUsage();
const mb = (n: number) => Math.round(n / 1048576);
globalThis.gc?.();
const base = memory();

// ─── Load: the store replayed with searches held back, then the full computation.

const t0 = performance.now();
engine.load(() => {
  for (let k = 0; k < MEMBERS; k++) {
    const distanceKm = k % 5 === 0 ? [10, 15, 50][k % 3] : undefined;
    engine.upsertMember(memberId(k), { place: { latitude: lat[k]!, longitude: lon[k]! }, premium: k % 10 === 0, ...(distanceKm ? { distanceKm } : {}) });
  }
  for (let k = 0; k < LISTINGS; k++) {
    const o = owner[k]!;
    engine.upsertListing(listingId(k), {
      ownerId: memberId(o),
      place: { latitude: lat[o]!, longitude: lon[o]! },
      active: next() < 0.95,
      premiumOnly: next() < 0.05,
      createdAt: NOW - next() * 60 * DAY,
    });
  }
  while (engine.wishes < WISHES) {
    const w = int(MEMBERS);
    const l = wanted(w);
    if (l >= 0) engine.addWish(memberId(w), listingId(l));
  }
  // A few blocks: one member in a hundred blocked a neighbour.
  for (let k = 0; k < MEMBERS; k += 100) {
    const peers = areaMembers[area[k]!]!;
    engine.block(memberId(k), memberId(peers[int(peers.length)]!));
  }
});
const loadAndCompute = performance.now() - t0;
const t1 = performance.now();
const cycles = engine.recomputeAll();
const full = performance.now() - t1;
const counts = engine.counts;
console.log(`world: ${MEMBERS.toLocaleString('en')} members, ${LISTINGS.toLocaleString('en')} listings, ${counts.wishes.toLocaleString('en')} wishes (clustered in ${areas} areas)`);
console.log(`load (the store replayed with searches held back, then the full computation): ${(loadAndCompute / 1000).toFixed(2)} s`);
console.log(`full computation from scratch: ${(full / 1000).toFixed(2)} s, ${cycles.toLocaleString('en')} cycles (${counts.twoCycles.toLocaleString('en')} of two, ${counts.threeCycles.toLocaleString('en')} of three)`);

// ─── New wishes, one at a time.

const times: number[] = [];
let found = 0;
let withChains = 0;
while (times.length < NEW_WISHES) {
  const w = int(MEMBERS);
  const l = wanted(w);
  if (l < 0) continue;
  const s = performance.now();
  const chains = engine.addWish(memberId(w), listingId(l));
  times.push(performance.now() - s);
  found += chains.length;
  if (chains.length) withChains++;
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
times.sort((a, b) => a - b);
console.log(`new wish → its chains found: p50 ${pct(times, 50).toFixed(3)} ms, p99 ${pct(times, 99).toFixed(3)} ms, max ${times.at(-1)!.toFixed(3)} ms (${NEW_WISHES} new wishes, ${withChains} closed a chain, ${found} chains found)`);

// ─── A member's suggestions.

const asks: number[] = [];
let answered = 0;
for (let i = 0; i < NEW_WISHES; i++) {
  const m = memberId(int(MEMBERS));
  const s = performance.now();
  answered += engine.suggestionsFor(m, NOW).length;
  asks.push(performance.now() - s);
}
asks.sort((a, b) => a - b);
console.log(`suggestionsFor(member, now): p50 ${pct(asks, 50).toFixed(3)} ms, p99 ${pct(asks, 99).toFixed(3)} ms (${NEW_WISHES} members, ${(answered / NEW_WISHES).toFixed(2)} chains each)`);

// ─── Memory.

globalThis.gc?.();
const after = memory();
const held = after.heapUsed - base.heapUsed + (after.arrayBuffers - base.arrayBuffers);
console.log(
  `memory${globalThis.gc ? ' (after gc)' : ' (no --expose-gc: before gc)'}: heap ${mb(after.heapUsed)} MB, array buffers ${mb(after.arrayBuffers)} MB (engine's typed arrays ${mb(engine.arrayBytes)} MB), RSS ${mb(after.rss)} MB; ` +
    `${Math.round(held / counts.wishes)} bytes per wish (the engine's heap and array buffers over its wishes)`,
);
