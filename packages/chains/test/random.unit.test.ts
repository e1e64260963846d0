// Random small worlds and random sequences of changes: after every step the engine's chains for
// every member, at three moments (before, across and after the head start), equal the brute-force
// reference's; and a computation from scratch ends where the incremental one did.
import { describe, expect, it } from 'vitest';
import { ChainEngine, type ListingInput, type MemberInput } from '../src/index.ts';
import { chainsOf, pairKey, referenceChains, type World } from './reference.ts';

const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3600_000;

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

function scenario(seed: number, steps: number) {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const memberIds = Array.from({ length: 4 + Math.floor(next() * 5) }, (_, i) => `m${i}`);
  const listingIds = Array.from({ length: 6 + Math.floor(next() * 10) }, (_, i) => `l${String(i).padStart(2, '0')}`);
  // Places within about 40 km of Utrecht, so the search distance matters.
  const place = () => (next() < 0.1 ? null : { latitude: 52.09 + (next() - 0.5) * 0.4, longitude: 5.12 + (next() - 0.5) * 0.6 });
  const memberInput = (): MemberInput => ({ place: place(), premium: next() < 0.3, ...(next() < 0.5 ? { distanceKm: pick([5, 10, 25, 50]) } : {}) });
  const listingInput = (ownerId: string): ListingInput => ({ ownerId, place: place(), active: next() < 0.9, premiumOnly: next() < 0.15, createdAt: NOW - next() * 12 * HOUR });

  const world: World = { members: new Map(), listings: new Map(), wishes: new Set(), blocks: new Set() };
  const engine = new ChainEngine();
  const owners = new Map<string, string>();
  for (const id of memberIds) {
    const input = memberInput();
    world.members.set(id, input);
    engine.upsertMember(id, input);
  }
  for (const id of listingIds) {
    const input = listingInput(pick(memberIds));
    owners.set(id, input.ownerId);
    world.listings.set(id, input);
    engine.upsertListing(id, input);
  }

  const seen = { two: 0, three: 0 };
  const check = (label: string) => {
    for (const now of [NOW - 6 * HOUR, NOW - 3 * HOUR, NOW]) {
      const all = referenceChains(world, now);
      for (const m of memberIds) {
        const got = engine.suggestionsFor(m, now);
        expect(got, `${label}: ${m} at ${(now - NOW) / HOUR} h`).toEqual(chainsOf(all, m));
        for (const c of got) seen[c.participants.length === 2 ? 'two' : 'three']++;
      }
    }
  };

  const ops: (() => string)[] = [
    () => {
      const m = pick(memberIds);
      const l = pick(listingIds);
      engine.addWish(m, l);
      world.wishes.add(`${m}|${l}`);
      return `wish ${m} ${l}`;
    },
    () => {
      const m = pick(memberIds);
      const l = pick(listingIds);
      engine.addWish(m, l);
      world.wishes.add(`${m}|${l}`);
      return `wish ${m} ${l}`;
    },
    () => {
      const w = pick([...world.wishes, 'x|y']);
      const [m, l] = w.split('|') as [string, string];
      engine.removeWish(m, l);
      world.wishes.delete(w);
      return `unwish ${w}`;
    },
    () => {
      const m = pick(memberIds);
      const input = memberInput();
      engine.upsertMember(m, input);
      world.members.set(m, input);
      return `member ${m}`;
    },
    () => {
      const l = pick(listingIds);
      const input = listingInput(owners.get(l)!);
      engine.upsertListing(l, input);
      world.listings.set(l, input);
      return `listing ${l}`;
    },
    () => {
      const l = pick(listingIds);
      engine.removeListing(l);
      world.listings.set(l, { ...world.listings.get(l)!, active: false });
      for (const w of [...world.wishes]) if (w.endsWith(`|${l}`)) world.wishes.delete(w);
      return `remove ${l}`;
    },
    () => {
      const a = pick(memberIds);
      const b = pick(memberIds);
      engine.block(a, b);
      if (a !== b) world.blocks.add(pairKey(a, b));
      return `block ${a} ${b}`;
    },
    () => {
      const [a, b] = pick([...world.blocks, 'm0|m1']).split('|') as [string, string];
      engine.unblock(b, a);
      world.blocks.delete(pairKey(a, b));
      return `unblock ${a} ${b}`;
    },
  ];
  // Start with a dense want graph, so rings are common.
  for (let i = 0; i < listingIds.length * 3; i++) ops[0]!();
  check('start');
  for (let i = 0; i < steps; i++) {
    check(`step ${i}: ${pick(ops)()}`);
  }
  const before = memberIds.map((m) => engine.suggestionsFor(m, NOW));
  engine.recomputeAll();
  expect(memberIds.map((m) => engine.suggestionsFor(m, NOW))).toEqual(before);
  return seen;
}

describe('the engine against a brute-force reference', () => {
  it('agrees over 150 random worlds and their changes', () => {
    let twos = 0;
    let threes = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const seen = scenario(seed, 40);
      twos += seen.two;
      threes += seen.three;
    }
    // The worlds must actually hold chains of both sizes, or the comparison proves little.
    expect(twos).toBeGreaterThan(1000);
    expect(threes).toBeGreaterThan(1000);
  }, 60_000);
});
