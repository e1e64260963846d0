// Members blocking members (issue 22): auth owns the relation and announces each change as
// `auth.block.added` / `auth.block.removed`; every follower keeps this projection of it, fed on its
// `*-members` durable (members.ts `consume({ blocks })`), and refuses what it must between the two.
import type { BlockEvent } from '@ruilplein/contracts';
import type { mongo } from 'mongoose';
import { collection as typedCollection, type Connection } from './mongo.ts';
import { applyIfNewer } from './projection.ts';

/** One direction of one pair as last announced: the pair's version and whether the block holds. */
interface Side {
  v: number;
  on: boolean;
}

/**
 * One member's relations, read by `_id` only: `out` the members they blocked, `in` those who blocked
 * them, each keyed by the other's id. Ended blocks stay (`on: false`) with their version, so a late
 * older event changes nothing. A deleted member's document is a tombstone that takes no event.
 */
export interface BlockDoc {
  _id: string;
  out?: Record<string, Side>;
  in?: Record<string, Side>;
  deleted?: boolean;
}

/** auth's ids are lowercase hex; stored and read under that spelling (as members.ts does). */
const idOf = (id: string) => id.toLowerCase();

/** The ids a member's document hides from them: blocked by them or blocking them. */
function hiddenIn(doc: Pick<BlockDoc, 'out' | 'in'> | null): Set<string> {
  const hidden = new Set<string>();
  for (const side of [doc?.out, doc?.in]) for (const [id, s] of Object.entries(side ?? {})) if (s.on) hidden.add(id);
  return hidden;
}

export interface BlockProjection {
  readonly collection: mongo.Collection<BlockDoc>;
  /** Applies one pair's change when newer than what is kept (redelivery, reordering: no effect). */
  apply(event: BlockEvent, added: boolean): Promise<void>;
  /** The account is gone: its relations go both ways, and later events about it are ignored. */
  forget(userId: string): Promise<void>;
  /** Whether either member blocks the other (one read by `_id`). */
  blockedEitherWay(a: string, b: string): Promise<boolean>;
  /** Everyone `userId` blocked or is blocked by (one read by `_id`). */
  hiddenFor(userId: string): Promise<Set<string>>;
}

/** The block projection of one service, in its `blocks` collection. */
export function blockProjection(db: Connection, options: { collection?: string } = {}): BlockProjection {
  const collection = typedCollection<BlockDoc>(db, options.collection ?? 'blocks');
  const read = (id: string) => collection.findOne({ _id: idOf(id) }, { projection: { out: 1, in: 1 } });
  return {
    collection,
    async apply(event, added) {
      const blocker = idOf(event.blockerId);
      const blocked = idOf(event.blockedId);
      if (blocker === blocked) return;
      // A deleted member's relations were dropped: a late event must not bring them back.
      if (await collection.findOne({ _id: { $in: [blocker, blocked] }, deleted: true }, { projection: { _id: 1 } })) return;
      // Each side by itself, each only when newer: a redelivery finishes what a crash left half done.
      await applyIfNewer(collection, blocker, event.version, { [`out.${blocked}.on`]: added }, { field: `out.${blocked}.v` });
      await applyIfNewer(collection, blocked, event.version, { [`in.${blocker}.on`]: added }, { field: `in.${blocker}.v` });
    },
    async forget(userId) {
      const id = idOf(userId);
      const doc = await collection.findOne({ _id: id });
      for (const other of Object.keys(doc?.out ?? {})) await collection.updateOne({ _id: other }, { $unset: { [`in.${id}`]: '' } });
      for (const other of Object.keys(doc?.in ?? {})) await collection.updateOne({ _id: other }, { $unset: { [`out.${id}`]: '' } });
      await collection.replaceOne({ _id: id }, { deleted: true }, { upsert: true });
    },
    async blockedEitherWay(a, b) {
      return hiddenIn(await read(a)).has(idOf(b));
    },
    async hiddenFor(userId) {
      return hiddenIn(await read(userId));
    },
  };
}

/**
 * The same relation in memory, for a reader that cannot wait on the store per request (the search
 * replicas): loaded from a projection's documents, then kept by the same events, newest per pair.
 */
export class BlockTable {
  /** `<blocker>><blocked>` → the pair's last state. */
  private readonly pairs = new Map<string, Side>();
  private readonly hidden = new Map<string, Set<string>>();
  private readonly gone = new Set<string>();

  /** Members with at least one relation. */
  get size(): number {
    return this.hidden.size;
  }

  /** Everyone `userId` blocked or is blocked by; the same empty set for most members. */
  hiddenFor(userId: string): ReadonlySet<string> {
    return this.hidden.get(idOf(userId)) ?? NONE;
  }

  /** A projection document as stored (its `out` side holds every pair it is the blocker of). */
  load(doc: BlockDoc): void {
    if (doc.deleted) return void this.gone.add(doc._id);
    for (const [blocked, side] of Object.entries(doc.out ?? {})) this.set(doc._id, blocked, side);
  }

  /** One event; answers whether it changed anything. */
  apply(event: BlockEvent, added: boolean): boolean {
    const blocker = idOf(event.blockerId);
    const blocked = idOf(event.blockedId);
    if (blocker === blocked || this.gone.has(blocker) || this.gone.has(blocked)) return false;
    const kept = this.pairs.get(`${blocker}>${blocked}`);
    if (kept && kept.v >= event.version) return false;
    this.set(blocker, blocked, { v: event.version, on: added });
    return true;
  }

  forget(userId: string): void {
    const id = idOf(userId);
    this.gone.add(id);
    for (const other of this.hidden.get(id) ?? []) {
      const set = this.hidden.get(other);
      set?.delete(id);
      if (set?.size === 0) this.hidden.delete(other);
    }
    this.hidden.delete(id);
    for (const key of this.pairs.keys()) if (key.startsWith(`${id}>`) || key.endsWith(`>${id}`)) this.pairs.delete(key);
  }

  private set(blocker: string, blocked: string, side: Side): void {
    this.pairs.set(`${blocker}>${blocked}`, side);
    const either = side.on || !!this.pairs.get(`${blocked}>${blocker}`)?.on;
    for (const [a, b] of [[blocker, blocked], [blocked, blocker]] as const) {
      let set = this.hidden.get(a);
      if (either) {
        if (!set) this.hidden.set(a, (set = new Set()));
        set.add(b);
      } else if (set) {
        set.delete(b);
        if (set.size === 0) this.hidden.delete(a);
      }
    }
  }
}

const NONE: ReadonlySet<string> = new Set();
