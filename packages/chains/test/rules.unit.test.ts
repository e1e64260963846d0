// One rule at a time, on a ring of three members near Utrecht (Anna → Bram → Cor → Anna: each wants
// the next one's listing) and a pair (Anna and Dirk want each other's).
import { describe, expect, it } from 'vitest';
import { ChainEngine, type ListingInput } from '../src/index.ts';

const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3600_000;
const UTRECHT = { latitude: 52.0907, longitude: 5.1214 };
/** About 10 km east of Utrecht. */
const BUNNIK_ISH = { latitude: 52.0907, longitude: 5.2684 };
/** About 40 km away (Amsterdam). */
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041 };

const listing = (ownerId: string, more: Partial<ListingInput> = {}): ListingInput => ({ ownerId, place: UTRECHT, active: true, premiumOnly: false, createdAt: NOW - 24 * HOUR, ...more });

/** Anna (a) gives la to Cor, Bram (b) gives lb to Anna, Cor (c) gives lc to Bram. */
function ring(premium = false) {
  const engine = new ChainEngine();
  for (const m of ['a', 'b', 'c']) engine.upsertMember(m, { place: UTRECHT, premium });
  engine.upsertListing('la', listing('a'));
  engine.upsertListing('lb', listing('b'));
  engine.upsertListing('lc', listing('c'));
  engine.addWish('a', 'lb');
  engine.addWish('b', 'lc');
  const found = engine.addWish('c', 'la');
  return { engine, found };
}

const ids = (engine: ChainEngine, member: string, now = NOW) => engine.suggestionsFor(member, now).map((c) => c.participants.map((p) => `${p.userId}:${p.gives.listingId}>${p.receives.listingId}`).join(' '));

describe('cycles', () => {
  it('a new wish answers the ring it closes, with participants in ring order, and each member sees it', () => {
    const { engine, found } = ring();
    expect(found).toHaveLength(1);
    expect(found[0]!.participants).toEqual([
      { userId: 'a', gives: { listingId: 'la' }, receives: { listingId: 'lb' } },
      { userId: 'c', gives: { listingId: 'lc' }, receives: { listingId: 'la' } },
      { userId: 'b', gives: { listingId: 'lb' }, receives: { listingId: 'lc' } },
    ]);
    expect(found[0]!.maxDistanceKm).toBe(0);
    for (const m of ['a', 'b', 'c']) expect(engine.suggestionsFor(m, NOW)).toEqual(found);
    expect(engine.chain(found[0]!.id, NOW)).toEqual(found[0]);
    expect(found[0]!.id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('the id is stable: the same ring found in another order has the same id', () => {
    const { found } = ring();
    const other = new ChainEngine();
    for (const m of ['c', 'b', 'a']) other.upsertMember(m, { place: UTRECHT, premium: false });
    other.addWish('c', 'la');
    other.addWish('a', 'lb');
    other.addWish('b', 'lc');
    other.upsertListing('lc', listing('c'));
    other.upsertListing('lb', listing('b'));
    other.upsertListing('la', listing('a'));
    expect(other.suggestionsFor('a', NOW).map((c) => c.id)).toEqual([found[0]!.id]);
  });

  it('a pair is a chain of two; a wish the wrong way round closes nothing', () => {
    const engine = new ChainEngine();
    engine.upsertMember('a', { place: UTRECHT, premium: false });
    engine.upsertMember('d', { place: UTRECHT, premium: false });
    engine.upsertListing('la', listing('a'));
    engine.upsertListing('ld', listing('d'));
    expect(engine.addWish('a', 'ld')).toEqual([]);
    expect(engine.addWish('a', 'la')).toEqual([]);
    const [pair] = engine.addWish('d', 'la');
    expect(pair!.participants.map((p) => p.userId).sort()).toEqual(['a', 'd']);
    expect(ids(engine, 'a')).toEqual(['a:la>ld d:ld>la']);
  });

  it('ranks shorter first, then nearer, then fresher', () => {
    const { engine } = ring();
    // A pair with Dirk, farther away, and a second ring through a fresher listing of Bram's.
    engine.upsertMember('d', { place: BUNNIK_ISH, premium: false });
    engine.upsertListing('ld', listing('d'));
    engine.addWish('a', 'ld');
    engine.addWish('d', 'la');
    engine.upsertListing('lb2', listing('b', { createdAt: NOW - 7 * HOUR }));
    engine.addWish('a', 'lb2');
    // Rings through Dirk, whose farthest receiver is 10 km away: Anna → Bram → Dirk → Anna.
    engine.upsertListing('ld2', listing('d'));
    engine.addWish('b', 'ld2');
    const got = engine.suggestionsFor('a', NOW);
    expect(got.map((c) => [c.participants.length, Math.round(c.maxDistanceKm)])).toEqual([[2, 10], [3, 0], [3, 0], [3, 10], [3, 10]]);
    // Equal distance (0 km): the ring with lb2 (created 7 h ago) before the one with lb (24 h ago).
    expect(got[1]!.participants.map((p) => p.gives.listingId)).toContain('lb2');
    expect(got[2]!.participants.map((p) => p.gives.listingId)).toContain('lb');
  });
});

describe('every rule', () => {
  it('a deactivated listing ends its chains; active again, they return', () => {
    const { engine } = ring();
    engine.upsertListing('lb', listing('b', { active: false }));
    expect(ids(engine, 'a')).toEqual([]);
    engine.upsertListing('lb', listing('b'));
    expect(ids(engine, 'c')).toHaveLength(1);
  });

  it('a removed listing (traded elsewhere) ends its chains and its wishes', () => {
    const { engine } = ring();
    engine.removeListing('lc');
    expect(ids(engine, 'b')).toEqual([]);
    engine.upsertListing('lc', listing('c'));
    expect(ids(engine, 'b')).toEqual([]);
    engine.addWish('b', 'lc');
    expect(ids(engine, 'b')).toHaveLength(1);
  });

  it('a removed wish ends its chains', () => {
    const { engine } = ring();
    engine.removeWish('b', 'lc');
    expect(ids(engine, 'a')).toEqual([]);
  });

  it('a premium-only listing only goes to a Premium receiver', () => {
    const { engine } = ring();
    engine.upsertListing('la', listing('a', { premiumOnly: true }));
    expect(ids(engine, 'a')).toEqual([]);
    // Cor receives la: once Premium, the ring holds.
    engine.upsertMember('c', { place: UTRECHT, premium: true });
    expect(ids(engine, 'a')).toHaveLength(1);
  });

  it('a new listing reaches non-Premium receivers after the six-hour head start, Premium ones at once', () => {
    const { engine } = ring();
    engine.upsertListing('lc', listing('c', { createdAt: NOW - 2 * HOUR }));
    expect(ids(engine, 'a', NOW)).toEqual([]);
    expect(ids(engine, 'a', NOW + 4 * HOUR - 1)).toEqual([]);
    expect(ids(engine, 'a', NOW + 4 * HOUR)).toHaveLength(1);
    // Bram receives lc.
    engine.upsertMember('b', { place: UTRECHT, premium: true });
    expect(ids(engine, 'a', NOW)).toHaveLength(1);
  });

  it('each listing lies within its receiver’s search distance', () => {
    const { engine } = ring();
    engine.upsertListing('lb', listing('b', { place: BUNNIK_ISH }));
    // Anna receives lb, 10 km away: within the default 25 km, not within 5.
    expect(engine.suggestionsFor('a', NOW)[0]!.maxDistanceKm).toBeCloseTo(10, 0);
    engine.upsertMember('a', { place: UTRECHT, premium: false, distanceKm: 5 });
    expect(ids(engine, 'a')).toEqual([]);
    engine.upsertMember('a', { place: UTRECHT, premium: false, distanceKm: 15 });
    expect(ids(engine, 'a')).toHaveLength(1);
    // Anna moves to Amsterdam: 40 km.
    engine.upsertMember('a', { place: AMSTERDAM, premium: false });
    expect(ids(engine, 'b')).toEqual([]);
    engine.upsertMember('a', { place: UTRECHT, premium: false });
    expect(ids(engine, 'b')).toHaveLength(1);
  });

  it('a member or a listing without a place is in no chain', () => {
    const { engine } = ring();
    engine.upsertMember('b', { place: null, premium: false });
    expect(ids(engine, 'a')).toEqual([]);
    engine.upsertMember('b', { place: UTRECHT, premium: false });
    engine.upsertListing('la', listing('a', { place: null }));
    expect(ids(engine, 'b')).toEqual([]);
  });

  it('no two participants have blocked each other, either way; unblocked, the chain returns', () => {
    const { engine } = ring();
    engine.block('c', 'a');
    expect(ids(engine, 'b')).toEqual([]);
    engine.unblock('a', 'c');
    expect(ids(engine, 'b')).toHaveLength(1);
    // A block with someone outside the ring changes nothing.
    engine.block('a', 'z');
    expect(ids(engine, 'b')).toHaveLength(1);
  });

  it('events in any order: a wish before its listing and members are known', () => {
    const engine = new ChainEngine();
    engine.addWish('a', 'lb');
    engine.addWish('b', 'la');
    engine.upsertListing('la', listing('a'));
    engine.upsertListing('lb', listing('b'));
    expect(ids(engine, 'a')).toEqual([]);
    engine.upsertMember('a', { place: UTRECHT, premium: false });
    engine.upsertMember('b', { place: UTRECHT, premium: false });
    expect(ids(engine, 'a')).toEqual(['a:la>lb b:lb>la']);
  });
});

describe('reservations: a listing is in at most one open proposal', () => {
  it('a reserved chain’s listings leave every other suggestion until released; a second reservation of one of them loses', () => {
    const { engine, found } = ring();
    const ringId = found[0]!.id;
    engine.upsertMember('d', { place: UTRECHT, premium: false });
    engine.upsertListing('ld', listing('d'));
    engine.addWish('d', 'la');
    const [pair] = engine.addWish('a', 'ld');
    expect(engine.suggestionsFor('a', NOW)).toHaveLength(2);
    expect(engine.reserve(ringId, NOW)).toBe(true);
    expect(engine.reserve(ringId, NOW)).toBe(false);
    expect(engine.suggestionsFor('a', NOW)).toEqual([]);
    expect(engine.suggestionsFor('d', NOW)).toEqual([]);
    // The pair shares la: it cannot be reserved while the ring is.
    expect(engine.reserve(pair!.id, NOW)).toBe(false);
    expect(engine.chain(pair!.id, NOW)).toBeNull();
    // held: still there, but taken (the chain service answers 409, not 404).
    expect(engine.held(pair!.id, NOW)).toMatchObject({ id: pair!.id, reserved: true });
    engine.release(ringId);
    expect(engine.held(pair!.id, NOW)).toMatchObject({ id: pair!.id, reserved: false });
    expect(engine.suggestionsFor('a', NOW)).toHaveLength(2);
    expect(engine.reserve(pair!.id, NOW)).toBe(true);
    expect(ids(engine, 'b')).toEqual([]);
  });

  it('a chain that no longer holds cannot be reserved; an unknown id neither', () => {
    const { engine, found } = ring();
    engine.upsertListing('lb', listing('b', { active: false }));
    expect(engine.reserve(found[0]!.id, NOW)).toBe(false);
    expect(engine.reserve('nope', NOW)).toBe(false);
    expect(engine.held(found[0]!.id, NOW)).toBeNull();
    expect(engine.held('nope', NOW)).toBeNull();
    engine.release('nope');
  });
});

describe('from scratch', () => {
  it('recomputeAll finds what the increments found', () => {
    const { engine } = ring();
    engine.upsertMember('d', { place: UTRECHT, premium: false });
    engine.upsertListing('ld', listing('d'));
    engine.addWish('d', 'la');
    engine.addWish('a', 'ld');
    const before = engine.suggestionsFor('a', NOW);
    expect(engine.recomputeAll()).toBe(2);
    expect(engine.suggestionsFor('a', NOW)).toEqual(before);
    expect(engine.counts).toMatchObject({ members: 4, listings: 4, wishes: 5, cycles: 2, twoCycles: 1, threeCycles: 1 });
  });

  it('load replays the store without searching, then computes every cycle once', () => {
    const engine = new ChainEngine();
    const cycles = engine.load(() => {
      for (const m of ['a', 'b', 'c']) engine.upsertMember(m, { place: UTRECHT, premium: false });
      expect(engine.addWish('a', 'lb')).toEqual([]);
      expect(engine.addWish('b', 'la')).toEqual([]);
      engine.upsertListing('la', listing('a'));
      engine.upsertListing('lb', listing('b'));
      expect(engine.counts.cycles).toBe(0);
    });
    expect(cycles).toBe(1);
    expect(ids(engine, 'a')).toEqual(['a:la>lb b:lb>la']);
  });
});
