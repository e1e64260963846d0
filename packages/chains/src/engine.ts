// The want graph and its swap chains (issue 24): cycles of two and three members in which each one
// gives a listing the next one wants. Members, listings and wishes live in typed arrays (rows
// addressed by an id → row map), wishes as an edge table threaded on two intrusive lists: a member's
// wishes ("out") and a listing's wishers ("in"); a member's own listings are a third list. A wish is
// usable ("valid") when its listing is active and placed, the wisher is placed, the listing is
// within the wisher's search distance, premium-only listings go to Premium wishers only, and the
// wisher and the owner have not blocked each other. In a cycle of two or three every pair of
// participants is joined by one of its wishes, so a cycle holds every rule exactly when each of its
// wishes is valid; only the six-hour head start depends on the clock, and it is kept per cycle as
// the moment it becomes visible (`visibleFrom`), checked when asked.
//
// Incremental search: a wish A → listing L of B closes a cycle when B wants a listing of A (two)
// or B wants a listing of C who wants a listing of A (three). The wishers of A's listings are
// marked first (a stamp per member), then B's wishes are walked once: O(in(A) + out(B)).
// Any change re-checks the cycles it touches and searches again through the wishes it may have
// made valid; `recomputeAll` searches through every wish.
import { createHash } from 'node:crypto';
import { PREMIUM_HEAD_START_HOURS, SEARCH_DEFAULT_DISTANCE_KM } from '@ruilplein/contracts';
import { chord2ForKm, kmForChord2, roundKm, toVec } from '@ruilplein/search';

const HEAD_START_MS = PREMIUM_HEAD_START_HOURS * 3600_000;
const NONE = -1;

export interface MemberInput {
  /** null: no place known; such a member takes part in no chain (their distance cannot be checked). */
  place: { latitude: number; longitude: number } | null;
  premium: boolean;
  /** Their search distance; default SEARCH_DEFAULT_DISTANCE_KM. */
  distanceKm?: number;
}

export interface ListingInput {
  ownerId: string;
  /** null: no place; such a listing is in no chain. */
  place: { latitude: number; longitude: number } | null;
  active: boolean;
  premiumOnly: boolean;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

export interface ChainParticipant {
  userId: string;
  gives: { listingId: string };
  receives: { listingId: string };
}

export interface ChainSuggestion {
  /** Stable: a hash of the listing ids in ring order, starting at the smallest. */
  id: string;
  /** In ring order: each gives to the next, the last to the first. */
  participants: ChainParticipant[];
  /** The farthest any receiver is from the listing they receive, km with one decimal. */
  maxDistanceKm: number;
}

interface Cycle {
  id: string;
  /** Listing rows in ring order (rotated to the smallest listing id): the owner of listings[i] gives it to the owner of listings[i+1]. */
  listings: number[];
  /** When every listing is visible to its receiver (the head start; 0: at once). */
  visibleFrom: number;
  /** The mean creation time of its listings: later is fresher. */
  freshness: number;
  maxKm: number;
}

/** Doubles a typed array's length (copying), filling new room with `fill`. */
function grown<T extends Int32Array | Float64Array | Uint8Array>(a: T, capacity: number, fill = 0): T {
  const b = new (a.constructor as new (n: number) => T)(capacity);
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

export class ChainEngine {
  // ── Members.
  private memberIds: string[] = [];
  private memberRow = new Map<string, number>();
  private mX = new Float64Array(1024);
  private mY = new Float64Array(1024);
  private mZ = new Float64Array(1024);
  /** Squared chord of the search distance; -1: no place. */
  private mC2 = new Float64Array(1024);
  private mPremium = new Uint8Array(1024);
  /** How many blocks the member is part of (0: no lookup needed). */
  private mBlocks = new Int32Array(1024);
  private mHeadOut = new Int32Array(1024).fill(NONE);
  private mHeadOwned = new Int32Array(1024).fill(NONE);
  private mStamp = new Int32Array(1024);
  private stamp = 0;

  // ── Listings.
  private listingIds: string[] = [];
  private listingRow = new Map<string, number>();
  private lOwner = new Int32Array(1024).fill(NONE);
  private lX = new Float64Array(1024);
  private lY = new Float64Array(1024);
  private lZ = new Float64Array(1024);
  /** 1 active and placed, 2 premium-only. */
  private lFlags = new Uint8Array(1024);
  private lCreated = new Float64Array(1024);
  private lHeadIn = new Int32Array(1024).fill(NONE);
  private lNextOwned = new Int32Array(1024).fill(NONE);
  private lReserved = new Uint8Array(1024);

  // ── Wishes: an edge table with a free list (threaded through wNextOut).
  private wWisher = new Int32Array(4096);
  private wListing = new Int32Array(4096);
  private wNextOut = new Int32Array(4096);
  private wNextIn = new Int32Array(4096);
  private wTop = 0;
  private wFree = NONE;
  private wishCount = 0;

  // ── Blocks: pairs as a·2^26 + b with a < b.
  private blocks = new Set<number>();

  // ── Cycles.
  private cycles = new Map<string, Cycle>();
  private byListing = new Map<number, Set<Cycle>>();
  private byMember = new Map<number, Set<Cycle>>();
  private reservations = new Map<string, number[]>();

  // ── Scratch for the search: the wishers of A's listings (member, listing) marked with the stamp.
  private markMember: number[] = [];
  private markListing: number[] = [];
  /** Inside `load`: changes are recorded, searches wait for the computation at its end. */
  private loading = false;

  get wishes(): number {
    return this.wishCount;
  }

  get counts(): { members: number; listings: number; wishes: number; cycles: number; twoCycles: number; threeCycles: number } {
    let two = 0;
    for (const c of this.cycles.values()) if (c.listings.length === 2) two++;
    return { members: this.memberIds.length, listings: this.listingIds.length, wishes: this.wishCount, cycles: this.cycles.size, twoCycles: two, threeCycles: this.cycles.size - two };
  }

  // ─── Rows.

  private member(id: string): number {
    let r = this.memberRow.get(id);
    if (r !== undefined) return r;
    r = this.memberIds.length;
    this.memberIds.push(id);
    this.memberRow.set(id, r);
    if (r >= this.mX.length) {
      const n = this.mX.length * 2;
      this.mX = grown(this.mX, n);
      this.mY = grown(this.mY, n);
      this.mZ = grown(this.mZ, n);
      this.mC2 = grown(this.mC2, n);
      this.mPremium = grown(this.mPremium, n);
      this.mBlocks = grown(this.mBlocks, n);
      this.mHeadOut = grown(this.mHeadOut, n, NONE);
      this.mHeadOwned = grown(this.mHeadOwned, n, NONE);
      this.mStamp = grown(this.mStamp, n);
    }
    this.mC2[r] = -1;
    return r;
  }

  private listing(id: string): number {
    let r = this.listingRow.get(id);
    if (r !== undefined) return r;
    r = this.listingIds.length;
    this.listingIds.push(id);
    this.listingRow.set(id, r);
    if (r >= this.lOwner.length) {
      const n = this.lOwner.length * 2;
      this.lOwner = grown(this.lOwner, n, NONE);
      this.lX = grown(this.lX, n);
      this.lY = grown(this.lY, n);
      this.lZ = grown(this.lZ, n);
      this.lFlags = grown(this.lFlags, n);
      this.lCreated = grown(this.lCreated, n);
      this.lHeadIn = grown(this.lHeadIn, n, NONE);
      this.lNextOwned = grown(this.lNextOwned, n, NONE);
      this.lReserved = grown(this.lReserved, n);
    }
    return r;
  }

  private newWish(): number {
    this.wishCount++;
    if (this.wFree !== NONE) {
      const e = this.wFree;
      this.wFree = this.wNextOut[e]!;
      return e;
    }
    if (this.wTop >= this.wWisher.length) {
      const n = this.wWisher.length * 2;
      this.wWisher = grown(this.wWisher, n);
      this.wListing = grown(this.wListing, n);
      this.wNextOut = grown(this.wNextOut, n);
      this.wNextIn = grown(this.wNextIn, n);
    }
    return this.wTop++;
  }

  // ─── The rules.

  private blocked(a: number, b: number): boolean {
    if (this.mBlocks[a] === 0 || this.mBlocks[b] === 0) return false;
    return this.blocks.has(a < b ? a * 67108864 + b : b * 67108864 + a);
  }

  /** Whether member `w` may receive listing `l` (all rules but the clock). */
  private usable(w: number, l: number): boolean {
    const c2 = this.mC2[w]!;
    if (c2 < 0 || (this.lFlags[l]! & 1) === 0) return false;
    const owner = this.lOwner[l]!;
    if (owner === w || owner === NONE) return false;
    if (this.lFlags[l]! & 2 && this.mPremium[w] === 0) return false;
    const dx = this.mX[w]! - this.lX[l]!;
    const dy = this.mY[w]! - this.lY[l]!;
    const dz = this.mZ[w]! - this.lZ[l]!;
    if (dx * dx + dy * dy + dz * dz > c2) return false;
    return !this.blocked(w, owner);
  }

  private hasWish(w: number, l: number): boolean {
    for (let e = this.mHeadOut[w]!; e !== NONE; e = this.wNextOut[e]!) if (this.wListing[e] === l) return true;
    return false;
  }

  private km(w: number, l: number): number {
    const dx = this.mX[w]! - this.lX[l]!;
    const dy = this.mY[w]! - this.lY[l]!;
    const dz = this.mZ[w]! - this.lZ[l]!;
    return kmForChord2(dx * dx + dy * dy + dz * dz);
  }

  /** The receiver of ring[i]: the owner of the next listing. */
  private receiverAt(ring: readonly number[], i: number): number {
    return this.lOwner[ring[(i + 1) % ring.length]!]!;
  }

  private cycleHolds(ring: readonly number[]): boolean {
    for (let i = 0; i < ring.length; i++) {
      const l = ring[i]!;
      const w = this.receiverAt(ring, i);
      if (!this.usable(w, l) || !this.hasWish(w, l)) return false;
    }
    return true;
  }

  // ─── Cycles.

  private addCycle(ring: number[], found: Cycle[] | null): void {
    // Rotate to the smallest listing id, so the id does not depend on where the search started.
    let start = 0;
    for (let i = 1; i < ring.length; i++) if (this.listingIds[ring[i]!]! < this.listingIds[ring[start]!]!) start = i;
    const listings = ring.length === 2 ? [ring[start]!, ring[1 - start]!] : [ring[start]!, ring[(start + 1) % 3]!, ring[(start + 2) % 3]!];
    const key = listings.map((l) => this.listingIds[l]).join('>');
    const id = createHash('sha1').update(key).digest('hex').slice(0, 24);
    if (this.cycles.has(id)) return;
    let visibleFrom = 0;
    let freshness = 0;
    let maxKm = 0;
    for (let i = 0; i < listings.length; i++) {
      const l = listings[i]!;
      const w = this.receiverAt(listings, i);
      if (this.mPremium[w] === 0) visibleFrom = Math.max(visibleFrom, this.lCreated[l]! + HEAD_START_MS);
      freshness += this.lCreated[l]! / listings.length;
      maxKm = Math.max(maxKm, this.km(w, l));
    }
    const cycle: Cycle = { id, listings, visibleFrom, freshness, maxKm };
    this.cycles.set(id, cycle);
    for (const l of listings) {
      let s = this.byListing.get(l);
      if (!s) this.byListing.set(l, (s = new Set()));
      s.add(cycle);
      const m = this.lOwner[l]!;
      let t = this.byMember.get(m);
      if (!t) this.byMember.set(m, (t = new Set()));
      t.add(cycle);
    }
    found?.push(cycle);
  }

  private dropCycle(c: Cycle): void {
    this.cycles.delete(c.id);
    for (const l of c.listings) {
      const s = this.byListing.get(l);
      if (s && s.delete(c) && s.size === 0) this.byListing.delete(l);
      const m = this.lOwner[l]!;
      const t = this.byMember.get(m);
      if (t && t.delete(c) && t.size === 0) this.byMember.delete(m);
    }
  }

  /** Drops the cycles in `set` that no longer hold. */
  private recheck(set: Set<Cycle> | undefined): void {
    if (!set) return;
    for (const c of [...set]) if (!this.cycleHolds(c.listings)) this.dropCycle(c);
  }

  /** Finds the cycles through wish `a` → listing `l` (which must be usable). */
  private searchThrough(a: number, l: number, found: Cycle[] | null): void {
    if (this.loading) return;
    const b = this.lOwner[l]!;
    // Mark the members who may receive one of A's listings.
    const stamp = ++this.stamp;
    const mm = this.markMember;
    const ml = this.markListing;
    mm.length = 0;
    ml.length = 0;
    for (let own = this.mHeadOwned[a]!; own !== NONE; own = this.lNextOwned[own]!) {
      if ((this.lFlags[own]! & 1) === 0) continue;
      for (let e = this.lHeadIn[own]!; e !== NONE; e = this.wNextIn[e]!) {
        const c = this.wWisher[e]!;
        if (c === b || !this.usable(c, own)) continue;
        this.mStamp[c] = stamp;
        mm.push(c);
        ml.push(own);
      }
    }
    for (let e = this.mHeadOut[b]!; e !== NONE; e = this.wNextOut[e]!) {
      const l2 = this.wListing[e]!;
      const c = this.lOwner[l2]!;
      if (c === a) {
        if (this.usable(b, l2)) this.addCycle([l, l2], found);
        continue;
      }
      if (c === NONE || this.mStamp[c] !== stamp || !this.usable(b, l2)) continue;
      // A, B and C differ; C → A was checked when marked.
      for (let i = 0; i < mm.length; i++) if (mm[i] === c) this.addCycle([l, ml[i]!, l2], found);
    }
    // Two members: B wants a listing of A, found above as c === a.
  }

  // ─── Changes (each answers the new cycles it made, where that is useful).

  upsertMember(id: string, input: MemberInput): void {
    const m = this.member(id);
    if (input.place) {
      const v = toVec(input.place.latitude, input.place.longitude);
      this.mX[m] = v.x;
      this.mY[m] = v.y;
      this.mZ[m] = v.z;
      this.mC2[m] = chord2ForKm(input.distanceKm ?? SEARCH_DEFAULT_DISTANCE_KM);
    } else this.mC2[m] = -1;
    this.mPremium[m] = input.premium ? 1 : 0;
    this.afterMemberChange(m);
  }

  private afterMemberChange(m: number): void {
    const set = this.byMember.get(m);
    this.recheck(set);
    // Cycle figures (distance, head start) may have changed too: re-add those that hold.
    if (set) for (const c of [...set]) this.refresh(c);
    for (let e = this.mHeadOut[m]!; e !== NONE; e = this.wNextOut[e]!) {
      const l = this.wListing[e]!;
      if (this.usable(m, l)) this.searchThrough(m, l, null);
    }
  }

  /** Recomputes a cycle's figures (after a move or a change of membership). */
  private refresh(c: Cycle): void {
    this.dropCycle(c);
    this.addCycle(c.listings, null);
  }

  upsertListing(id: string, input: ListingInput): void {
    const l = this.listing(id);
    const owner = this.member(input.ownerId);
    const old = this.lOwner[l]!;
    if (old !== owner) {
      // Listings do not change hands; should one, its cycles go first (their indexes name the old owner).
      if (old !== NONE) {
        for (const c of [...(this.byListing.get(l) ?? [])]) this.dropCycle(c);
        this.unlinkOwned(old, l);
      }
      this.lOwner[l] = owner;
      this.lNextOwned[l] = this.mHeadOwned[owner]!;
      this.mHeadOwned[owner] = l;
    }
    if (input.place) {
      const v = toVec(input.place.latitude, input.place.longitude);
      this.lX[l] = v.x;
      this.lY[l] = v.y;
      this.lZ[l] = v.z;
    }
    this.lFlags[l] = (input.active && input.place ? 1 : 0) | (input.premiumOnly ? 2 : 0);
    this.lCreated[l] = input.createdAt;
    const set = this.byListing.get(l);
    this.recheck(set);
    if (set) for (const c of [...set]) this.refresh(c);
    if ((this.lFlags[l]! & 1) === 0) return;
    // Wishes for it may have become usable; and as the owner's listing it may close cycles through their wishes.
    for (let e = this.lHeadIn[l]!; e !== NONE; e = this.wNextIn[e]!) {
      const w = this.wWisher[e]!;
      if (this.usable(w, l)) this.searchThrough(w, l, null);
    }
  }

  private unlinkOwned(m: number, l: number): void {
    let prev = NONE;
    for (let x = this.mHeadOwned[m]!; x !== NONE; prev = x, x = this.lNextOwned[x]!) {
      if (x !== l) continue;
      if (prev === NONE) this.mHeadOwned[m] = this.lNextOwned[x]!;
      else this.lNextOwned[prev] = this.lNextOwned[x]!;
      this.lNextOwned[x] = NONE;
      return;
    }
  }

  /** Deleted (or traded and gone): inactive, and its wishes dropped. */
  removeListing(id: string): void {
    const l = this.listingRow.get(id);
    if (l === undefined) return;
    this.lFlags[l] = this.lFlags[l]! & ~1;
    while (this.lHeadIn[l] !== NONE) this.unlinkWish(this.wWisher[this.lHeadIn[l]!]!, l);
    this.recheck(this.byListing.get(l));
  }

  /** A member wants a listing: answers the chains this wish closes (new ones only). */
  addWish(memberId: string, listingId: string): ChainSuggestion[] {
    const w = this.member(memberId);
    const l = this.listing(listingId);
    if (this.hasWish(w, l)) return [];
    const e = this.newWish();
    this.wWisher[e] = w;
    this.wListing[e] = l;
    this.wNextOut[e] = this.mHeadOut[w]!;
    this.mHeadOut[w] = e;
    this.wNextIn[e] = this.lHeadIn[l]!;
    this.lHeadIn[l] = e;
    if (!this.usable(w, l)) return [];
    const found: Cycle[] = [];
    this.searchThrough(w, l, found);
    return found.map((c) => this.describe(c));
  }

  removeWish(memberId: string, listingId: string): void {
    const w = this.memberRow.get(memberId);
    const l = this.listingRow.get(listingId);
    if (w === undefined || l === undefined) return;
    if (this.unlinkWish(w, l)) this.recheck(this.byListing.get(l));
  }

  private unlinkWish(w: number, l: number): boolean {
    let e = NONE;
    for (let x = this.mHeadOut[w]!, prev = NONE; x !== NONE; prev = x, x = this.wNextOut[x]!) {
      if (this.wListing[x] !== l) continue;
      if (prev === NONE) this.mHeadOut[w] = this.wNextOut[x]!;
      else this.wNextOut[prev] = this.wNextOut[x]!;
      e = x;
      break;
    }
    if (e === NONE) return false;
    for (let x = this.lHeadIn[l]!, prev = NONE; x !== NONE; prev = x, x = this.wNextIn[x]!) {
      if (x !== e) continue;
      if (prev === NONE) this.lHeadIn[l] = this.wNextIn[x]!;
      else this.wNextIn[prev] = this.wNextIn[x]!;
      break;
    }
    this.wNextOut[e] = this.wFree;
    this.wFree = e;
    this.wishCount--;
    return true;
  }

  /** One of the two blocked the other (either way: a pair). */
  block(aId: string, bId: string): void {
    const a = this.member(aId);
    const b = this.member(bId);
    const key = a < b ? a * 67108864 + b : b * 67108864 + a;
    if (a === b || this.blocks.has(key)) return;
    this.blocks.add(key);
    this.mBlocks[a]!++;
    this.mBlocks[b]!++;
    this.recheck(this.byMember.get(a));
  }

  unblock(aId: string, bId: string): void {
    const a = this.memberRow.get(aId);
    const b = this.memberRow.get(bId);
    if (a === undefined || b === undefined) return;
    const key = a < b ? a * 67108864 + b : b * 67108864 + a;
    if (!this.blocks.delete(key)) return;
    this.mBlocks[a]!--;
    this.mBlocks[b]!--;
    for (const [x, y] of [[a, b], [b, a]] as const)
      for (let e = this.mHeadOut[x]!; e !== NONE; e = this.wNextOut[e]!) {
        const l = this.wListing[e]!;
        if (this.lOwner[l] === y && this.usable(x, l)) this.searchThrough(x, l, null);
      }
  }

  /**
   * Start-up: `feed` replays the store (members, listings, wishes, blocks) with the searches held
   * back, then every cycle is computed once from scratch. Answers the number of cycles.
   */
  load(feed: () => void): number {
    this.loading = true;
    try {
      feed();
    } finally {
      this.loading = false;
    }
    return this.recomputeAll();
  }

  /** Every cycle from scratch (start-up, or a check of the incremental state). */
  recomputeAll(): number {
    this.cycles.clear();
    this.byListing.clear();
    this.byMember.clear();
    for (let w = 0; w < this.memberIds.length; w++) {
      if (this.mC2[w]! < 0) continue;
      for (let e = this.mHeadOut[w]!; e !== NONE; e = this.wNextOut[e]!) {
        const l = this.wListing[e]!;
        if (this.usable(w, l)) this.searchThrough(w, l, null);
      }
    }
    return this.cycles.size;
  }

  // ─── Questions.

  private describe(c: Cycle): ChainSuggestion {
    const n = c.listings.length;
    const participants: ChainParticipant[] = [];
    for (let i = 0; i < n; i++) {
      const gives = c.listings[i]!;
      const receives = c.listings[(i + n - 1) % n]!;
      participants.push({ userId: this.memberIds[this.lOwner[gives]!]!, gives: { listingId: this.listingIds[gives]! }, receives: { listingId: this.listingIds[receives]! } });
    }
    return { id: c.id, participants, maxDistanceKm: roundKm(c.maxKm) };
  }

  private open(c: Cycle, now: number): boolean {
    return c.visibleFrom <= now && c.listings.every((l) => this.lReserved[l] === 0);
  }

  /**
   * The member's chains at `now`, shorter first, then nearer (the farthest receiver), then fresher
   * (the mean age of its listings), then by id. Chains holding a reserved listing are left out.
   */
  suggestionsFor(memberId: string, now: number): ChainSuggestion[] {
    const m = this.memberRow.get(memberId);
    const set = m === undefined ? undefined : this.byMember.get(m);
    if (!set) return [];
    const list = [...set].filter((c) => this.open(c, now));
    list.sort((x, y) => x.listings.length - y.listings.length || x.maxKm - y.maxKm || y.freshness - x.freshness || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    return list.map((c) => this.describe(c));
  }

  /** One chain by id, if it holds and is open at `now` (before proposing it). */
  chain(id: string, now: number): ChainSuggestion | null {
    const c = this.cycles.get(id);
    return c && this.open(c, now) ? this.describe(c) : null;
  }

  /**
   * One chain by id that holds and is visible at `now`, whether or not a proposal holds one of its
   * listings (`reserved`): tells "taken by another proposal" from "gone".
   */
  held(id: string, now: number): (ChainSuggestion & { reserved: boolean }) | null {
    const c = this.cycles.get(id);
    if (!c || c.visibleFrom > now) return null;
    return { ...this.describe(c), reserved: c.listings.some((l) => this.lReserved[l] !== 0) };
  }

  /**
   * A proposal opened for this chain: its listings leave every other suggestion until `release`.
   * False when the chain does not hold at `now` or one of its listings is already reserved (two
   * proposals racing for one listing: the second loses).
   */
  reserve(id: string, now: number): boolean {
    const c = this.cycles.get(id);
    if (!c || this.reservations.has(id) || !this.open(c, now)) return false;
    for (const l of c.listings) this.lReserved[l] = 1;
    this.reservations.set(id, [...c.listings]);
    return true;
  }

  /** The proposal ended (rejected, cancelled or completed). */
  release(id: string): void {
    const ls = this.reservations.get(id);
    if (!ls) return;
    this.reservations.delete(id);
    for (const l of ls) this.lReserved[l] = 0;
  }

  /** Bytes held in typed arrays (the rest is the id maps and the cycles). */
  get arrayBytes(): number {
    const arrays = [this.mX, this.mY, this.mZ, this.mC2, this.mPremium, this.mBlocks, this.mHeadOut, this.mHeadOwned, this.mStamp, this.lOwner, this.lX, this.lY, this.lZ, this.lFlags, this.lCreated, this.lHeadIn, this.lNextOwned, this.lReserved, this.wWisher, this.wListing, this.wNextOut, this.wNextIn];
    return arrays.reduce((s, a) => s + a.byteLength, 0);
  }
}
