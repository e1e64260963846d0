import { isPremiumAt, ROLES, type ListingCard, type MembershipState, type Role } from '@ruilplein/contracts';
import { isPlace, toVec } from './geo.ts';
import { capacityFor, SlotTable, type TableImage } from './slots.ts';

/** A member as the search needs them (the members projection's fields, or auth's event). */
export interface MemberState {
  id: string;
  version: number;
  firstName: string;
  lastName: string;
  city?: string;
  latitude?: number;
  longitude?: number;
  roles: readonly Role[];
  subscriptionEndsAt?: Date | string;
  deleted?: boolean;
}

const KNOWN = 1;
const DELETED = 8;
const PLACE = 16;

/** A member's roles as one byte (bit i: `ROLES[i]`), and back as one shared array per combination. */
const roleBitsOf = (roles: readonly Role[]) => roles.reduce((bits, role) => bits | (ROLES.includes(role) ? 1 << ROLES.indexOf(role) : 0), 0);
const ROLE_SETS: readonly (readonly Role[])[] = Array.from({ length: 1 << ROLES.length }, (_, bits) => ROLES.filter((_, i) => bits & (1 << i)));

/** The caller as search sees them. */
export interface Searcher {
  id: string;
  /** Unit vector of their place, absent without one. */
  place?: { x: number; y: number; z: number };
  premium: boolean;
}

/**
 * Every member the listing service knows, compactly: names and city as one text per member (the
 * card's `user`), their place as a unit vector and what makes them premium. Owners referenced by a
 * listing before their member state arrived get an empty row (version 0), filled in later.
 */
export class MemberTable extends SlotTable {
  private flags: Uint8Array;
  private roles: Uint8Array;
  private versions: Uint32Array;
  private subscriptionEnds: Float64Array;
  private xs: Float64Array;
  private ys: Float64Array;
  private zs: Float64Array;
  /** Decoded `user` objects of recently shown owners (cards show the same owners again and again). */
  private shown = new Map<number, ListingCard['user']>();

  constructor(capacity = 1024) {
    super(capacity);
    this.flags = new Uint8Array(capacity);
    this.roles = new Uint8Array(capacity);
    this.versions = new Uint32Array(capacity);
    this.subscriptionEnds = new Float64Array(capacity);
    this.xs = new Float64Array(capacity);
    this.ys = new Float64Array(capacity);
    this.zs = new Float64Array(capacity);
  }

  protected grow(capacity: number): void {
    const grown = <T extends Uint8Array | Uint32Array | Float64Array>(from: T, to: T): T => {
      to.set(from.subarray(0, this.top) as never);
      return to;
    };
    this.flags = grown(this.flags, new Uint8Array(capacity));
    this.roles = grown(this.roles, new Uint8Array(capacity));
    this.versions = grown(this.versions, new Uint32Array(capacity));
    this.subscriptionEnds = grown(this.subscriptionEnds, new Float64Array(capacity));
    this.xs = grown(this.xs, new Float64Array(capacity));
    this.ys = grown(this.ys, new Float64Array(capacity));
    this.zs = grown(this.zs, new Float64Array(capacity));
  }

  /** The slot of `id`, adding an empty row when unknown (a listing's owner before their state arrived). */
  slotOf(id: string): number {
    const slot = this.find(id);
    return slot >= 0 ? slot : this.add(id);
  }

  private add(id: string): number {
    const slot = this.insert(id, '[]');
    this.flags[slot] = 0;
    this.roles[slot] = 0;
    this.versions[slot] = 0;
    this.subscriptionEnds[slot] = 0;
    return slot;
  }

  /** Applies a member state when it is newer than the one held; answers whether it did. */
  apply(state: MemberState): boolean {
    const slot = this.slotOf(state.id);
    if (this.versions[slot]! >= state.version && this.flags[slot]! & KNOWN) return false;
    this.versions[slot] = state.version;
    this.shown.delete(slot);
    if (state.deleted) {
      this.flags[slot] = KNOWN | DELETED;
      this.roles[slot] = 0;
      this.subscriptionEnds[slot] = 0;
      this.setText(slot, '[]');
      return true;
    }
    let flags = KNOWN;
    this.roles[slot] = roleBitsOf(state.roles);
    if (isPlace(state.latitude, state.longitude)) {
      flags |= PLACE;
      const v = toVec(state.latitude!, state.longitude!);
      this.xs[slot] = v.x;
      this.ys[slot] = v.y;
      this.zs[slot] = v.z;
    }
    this.flags[slot] = flags;
    this.subscriptionEnds[slot] = state.subscriptionEndsAt ? new Date(state.subscriptionEndsAt).getTime() || 0 : 0;
    this.setText(slot, JSON.stringify([state.firstName, state.lastName, state.city ?? null]));
    return true;
  }

  /** Marks a member gone when the deletion is newer than what is held. */
  delete(id: string, version: number): boolean {
    return this.apply({ id, version, firstName: '', lastName: '', roles: [], deleted: true });
  }

  version(id: string): number {
    const slot = this.find(id);
    return slot < 0 ? 0 : this.versions[slot]!;
  }

  /** What the membership rules read of a row (an unknown member: no roles). */
  membership(slot: number): MembershipState {
    const f = this.flags[slot]!;
    const ends = this.subscriptionEnds[slot]!;
    return { roles: f & KNOWN ? ROLE_SETS[this.roles[slot]!]! : [], subscriptionEndsAt: ends ? new Date(ends) : null, deleted: (f & DELETED) !== 0 };
  }

  /** Premium rights at `now` (ms), by the platform's one rule (contracts' `isPremiumAt`). */
  premiumAt(slot: number, now: number): boolean {
    return (this.flags[slot]! & KNOWN) !== 0 && isPremiumAt(this.membership(slot), now);
  }

  /** The caller: place and premium from what the listing service knows of them, never from the request. */
  searcher(id: string, now: number): Searcher {
    const slot = this.find(id);
    if (slot < 0) return { id, premium: false };
    const f = this.flags[slot]!;
    const place = f & PLACE && !(f & DELETED) ? { x: this.xs[slot]!, y: this.ys[slot]!, z: this.zs[slot]! } : undefined;
    return { id, premium: this.premiumAt(slot, now), ...(place && { place }) };
  }

  /** The card's `user`; empty names while the member is unknown or gone. */
  owner(slot: number): ListingCard['user'] {
    let user = this.shown.get(slot);
    if (user) return user;
    const [firstName = '', lastName = '', city = null] = JSON.parse(this.text(slot)) as [string?, string?, (string | null)?];
    user = { id: this.id(slot), firstName, lastName, ...(city !== null && { city }) };
    if (this.shown.size >= 10_000) this.shown.clear();
    this.shown.set(slot, user);
    return user;
  }

  bytes(): number {
    return this.baseBytes() + this.capacity * (1 + 1 + 4 + 8 * 4) + this.arena.allocatedBytes;
  }

  image(): TableImage {
    const image = this.imageBase();
    const top = this.top;
    Object.assign(image.columns, {
      flags: this.flags.slice(0, top),
      roles: this.roles.slice(0, top),
      versions: this.versions.slice(0, top),
      subscriptionEnds: this.subscriptionEnds.slice(0, top),
      xs: this.xs.slice(0, top),
      ys: this.ys.slice(0, top),
      zs: this.zs.slice(0, top),
    });
    return image;
  }

  static restore(image: TableImage): MemberTable {
    const table = new MemberTable(capacityFor(image.meta.top));
    table.restoreBase(image);
    const c = image.columns;
    table.flags.set(c.flags as Uint8Array);
    table.roles.set(c.roles as Uint8Array);
    table.versions.set(c.versions as Uint32Array);
    table.subscriptionEnds.set(c.subscriptionEnds as Float64Array);
    table.xs.set(c.xs as Float64Array);
    table.ys.set(c.ys as Float64Array);
    table.zs.set(c.zs as Float64Array);
    return table;
  }
}
