// A small world held plainly, and every chain in it found by brute force: all rings of two and
// three listings whose receivers want them, checked rule by rule. The engine must answer the same.
import { createHash } from 'node:crypto';
import { chord2ForKm, kmForChord2, roundKm, toVec } from '@ruilplein/search';
import type { ChainSuggestion, ListingInput, MemberInput } from '../src/index.ts';

const HEAD_START_MS = 6 * 3600_000;

export interface World {
  members: Map<string, MemberInput>;
  listings: Map<string, ListingInput>;
  /** `member|listing` */
  wishes: Set<string>;
  /** `a|b` with a < b */
  blocks: Set<string>;
}

export const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

function chord2(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const u = toVec(a.latitude, a.longitude);
  const v = toVec(b.latitude, b.longitude);
  return (u.x - v.x) ** 2 + (u.y - v.y) ** 2 + (u.z - v.z) ** 2;
}

/** Whether `memberId` may receive `listingId` at `now`, every rule spelled out. */
function receives(world: World, memberId: string, listingId: string, now: number): boolean {
  const m = world.members.get(memberId);
  const l = world.listings.get(listingId);
  if (!m || !l || !world.wishes.has(`${memberId}|${listingId}`)) return false;
  if (!l.active || !l.place || !m.place || l.ownerId === memberId) return false;
  if (!m.premium && (l.premiumOnly || l.createdAt + HEAD_START_MS > now)) return false;
  if (chord2(m.place, l.place) > chord2ForKm(m.distanceKm ?? 25)) return false;
  return !world.blocks.has(pairKey(memberId, l.ownerId));
}

/** Every chain at `now`, ranked: per member, filter by participation (`chainsOf`). */
export function referenceChains(world: World, now: number, reserved: ReadonlySet<string> = new Set()): ChainSuggestion[] {
  const ids = [...world.listings.keys()].filter((id) => !reserved.has(id));
  const owner = (l: string) => world.listings.get(l)!.ownerId;
  const rings: string[][] = [];
  for (const a of ids)
    for (const b of ids) {
      if (owner(a) === owner(b)) continue;
      // a's owner gives a to b's owner and receives b.
      if (a < b && receives(world, owner(b), a, now) && receives(world, owner(a), b, now)) rings.push([a, b]);
      for (const c of ids) {
        if (a > b || a > c || owner(c) === owner(a) || owner(c) === owner(b)) continue;
        if (receives(world, owner(b), a, now) && receives(world, owner(c), b, now) && receives(world, owner(a), c, now)) rings.push([a, b, c]);
      }
    }
  const out = rings.map((ring) => {
      const n = ring.length;
      let maxKm = 0;
      let freshness = 0;
      for (let i = 0; i < n; i++) {
        const l = world.listings.get(ring[i]!)!;
        const receiver = world.members.get(owner(ring[(i + 1) % n]!))!;
        maxKm = Math.max(maxKm, kmForChord2(chord2(receiver.place!, l.place!)));
        freshness += l.createdAt / n;
      }
      const id = createHash('sha1').update(ring.join('>')).digest('hex').slice(0, 24);
      const participants = ring.map((l, i) => ({ userId: owner(l), gives: { listingId: l }, receives: { listingId: ring[(i + n - 1) % n]! } }));
      return { n, maxKm, freshness, suggestion: { id, participants, maxDistanceKm: roundKm(maxKm) } };
    });
  out.sort((x, y) => x.n - y.n || x.maxKm - y.maxKm || y.freshness - x.freshness || (x.suggestion.id < y.suggestion.id ? -1 : 1));
  return out.map((o) => o.suggestion);
}

export const chainsOf = (chains: readonly ChainSuggestion[], memberId: string) => chains.filter((c) => c.participants.some((p) => p.userId === memberId));
