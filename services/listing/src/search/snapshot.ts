import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Column, TableImage } from '@ruilplein/search';
import { now as clock, nowMs, type Connection } from '@ruilplein/service-kit';
import { mongo } from 'mongoose';

/**
 * Snapshots of the search index in the store, so a replica starts by reading a few hundred large
 * documents instead of a million small ones (FerretDB reads about 5,000 listings a second, and
 * fewer while it is busy). A snapshot is the index's columns and texts as they were after a known
 * position in the listing and auth streams; a replica restores it and follows the streams from
 * there, so it ends up where a full load would. One replica at a time writes one (a lease), now
 * and then; the two newest are kept.
 */

/** Changes whenever the layout of the tables changes: older snapshots are then ignored (2: members' roles as a column; 3: the keyword index). */
export const SNAPSHOT_FORMAT = 3;
const HEADS = 'search_snapshots';
const PART_BYTES = 4 * 1024 * 1024;
const KEEP = 2;

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

export interface StreamPositions {
  /** The last `listing` stream sequence applied. */
  listingSeq: number;
  /** The last `auth` stream sequence applied. */
  authSeq: number;
}

type ColumnType = 'u8' | 'u32' | 'i32' | 'f64';
interface SectionInfo {
  name: string;
  length: number;
  type?: ColumnType;
}

interface Head extends StreamPositions {
  _id: string;
  kind: 'head';
  format: number;
  /** The collection holding its parts. */
  collection: string;
  createdAt: Date;
  listings: TableImage['meta'];
  members: TableImage['meta'];
  sections: SectionInfo[];
  parts: number;
  bytes: number;
  storedBytes: number;
}

interface Lease {
  _id: 'lease';
  kind: 'lease';
  owner: string;
  until: Date;
}

interface Part {
  _id: number;
  offset: number;
  data: mongo.Binary;
}

export interface SnapshotImage {
  listings: TableImage;
  members: TableImage;
}

const typeOf = (c: Column): ColumnType =>
  c instanceof Uint8Array ? 'u8' : c instanceof Uint32Array ? 'u32' : c instanceof Int32Array ? 'i32' : 'f64';

function columnOf(type: ColumnType, bytes: Buffer): Column {
  const { buffer, byteOffset, byteLength } = bytes;
  switch (type) {
    case 'u8':
      return new Uint8Array(buffer, byteOffset, byteLength);
    case 'u32':
      return new Uint32Array(buffer, byteOffset, byteLength / 4);
    case 'i32':
      return new Int32Array(buffer, byteOffset, byteLength / 4);
    case 'f64':
      return new Float64Array(buffer, byteOffset, byteLength / 8);
  }
}

function sectionsOf(prefix: string, image: TableImage): { info: SectionInfo; bytes: Buffer }[] {
  const columns = Object.entries(image.columns).map(([name, c]) => ({
    info: { name: `${prefix}.column.${name}`, length: c.byteLength, type: typeOf(c) },
    bytes: Buffer.from(c.buffer, c.byteOffset, c.byteLength),
  }));
  const chunks = image.chunks.map((chunk, i) => ({ info: { name: `${prefix}.chunk.${i}`, length: chunk.length }, bytes: chunk }));
  return [...columns, ...chunks];
}

const heads = (db: Connection) => db.collection<Head | Lease>(HEADS);

/** The newest complete snapshot of the current format. */
export async function latestSnapshot(db: Connection): Promise<Head | undefined> {
  const all = (await heads(db).find({ kind: 'head', format: SNAPSHOT_FORMAT }).toArray()) as Head[];
  return all.sort((a, b) => +b.createdAt - +a.createdAt)[0];
}

/** Takes the writer's lease for `ms` when nobody holds it; answers whether it did. */
export async function takeLease(db: Connection, owner: string, ms: number, now = clock()): Promise<boolean> {
  try {
    const result = await heads(db).updateOne(
      { _id: 'lease', kind: 'lease', until: { $lt: now } } as never,
      { $set: { owner, until: new Date(now.getTime() + ms) } },
      { upsert: true },
    );
    return result.modifiedCount + result.upsertedCount === 1;
  } catch (err) {
    if ((err as { code?: number }).code === 11000) return false;
    throw err;
  }
}

export async function releaseLease(db: Connection, owner: string): Promise<void> {
  await heads(db).updateOne({ _id: 'lease', owner } as never, { $set: { until: new Date(0) } });
}

/**
 * Writes `image` (taken at `positions`) as a new snapshot: its parts first, each compressed, then
 * the head that makes it visible; then removes all but the newest two.
 */
export async function writeSnapshot(db: Connection, image: SnapshotImage, positions: StreamPositions): Promise<{ id: string; bytes: number; storedBytes: number }> {
  const id = `${nowMs().toString(36)}-${randomUUID().slice(0, 8)}`;
  const collection = `search_snapshot_${id.replace(/-/g, '_')}`;
  const sections = [...sectionsOf('listings', image.listings), ...sectionsOf('members', image.members)];
  const parts = db.collection<Part>(collection);
  let offset = 0;
  let storedBytes = 0;
  let n = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (!pendingBytes) return;
    const raw = Buffer.concat(pending, pendingBytes);
    const data = await deflate(raw, { level: 1 });
    await parts.insertOne({ _id: n++, offset, data: new mongo.Binary(data) });
    storedBytes += data.length;
    offset += raw.length;
    pending = [];
    pendingBytes = 0;
  };
  for (const { bytes } of sections) {
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(bytes.length - at, PART_BYTES - pendingBytes);
      pending.push(bytes.subarray(at, at + take));
      pendingBytes += take;
      at += take;
      if (pendingBytes === PART_BYTES) await flush();
    }
  }
  await flush();
  const head: Head = {
    _id: id,
    kind: 'head',
    format: SNAPSHOT_FORMAT,
    collection,
    createdAt: clock(),
    ...positions,
    listings: image.listings.meta,
    members: image.members.meta,
    sections: sections.map((s) => s.info),
    parts: n,
    bytes: offset,
    storedBytes,
  };
  await heads(db).insertOne(head);
  await pruneSnapshots(db);
  return { id, bytes: offset, storedBytes };
}

/** Keeps the newest two snapshots; removes older ones and parts no head names (a writer that died). */
export async function pruneSnapshots(db: Connection): Promise<void> {
  const all = ((await heads(db).find({ kind: 'head' }).toArray()) as Head[]).sort((a, b) => +b.createdAt - +a.createdAt);
  const kept = all.slice(0, KEEP);
  for (const head of all.slice(KEEP)) await heads(db).deleteOne({ _id: head._id });
  const names = new Set(kept.map((h) => h.collection));
  const collections = await db.db!.listCollections({}, { nameOnly: true }).toArray();
  // Parts younger than an hour may belong to a snapshot being written right now.
  const hourAgo = nowMs() - 3600_000;
  for (const { name } of collections) {
    if (!name.startsWith('search_snapshot_') || names.has(name)) continue;
    const started = parseInt(name.slice('search_snapshot_'.length).split('_')[0]!, 36);
    if (started < hourAgo) await db.dropCollection(name).catch(() => undefined);
  }
}

/** Reads a snapshot's parts (in any order) back into its tables' images. */
export async function readSnapshot(db: Connection, head: Head): Promise<SnapshotImage> {
  const buffers = head.sections.map((s) => Buffer.allocUnsafeSlow(s.length));
  const starts: number[] = [];
  let total = 0;
  for (const s of head.sections) {
    starts.push(total);
    total += s.length;
  }
  let parts = 0;
  for await (const part of db.collection<Part>(head.collection).find({}, { batchSize: 4 })) {
    const raw = await inflate(part.data.buffer);
    // Copy the part into every section it overlaps.
    let i = upperBound(starts, part.offset) - 1;
    for (let at = 0; at < raw.length; i++) {
      const into = part.offset + at - starts[i]!;
      const take = Math.min(raw.length - at, head.sections[i]!.length - into);
      raw.copy(buffers[i]!, into, at, at + take);
      at += take;
    }
    parts++;
  }
  if (parts !== head.parts) throw new Error(`snapshot ${head._id}: ${parts} of ${head.parts} parts`);
  const image = (prefix: string, meta: TableImage['meta']): TableImage => {
    const columns: Record<string, Column> = {};
    const chunks: Buffer[] = [];
    head.sections.forEach((s, i) => {
      const [owner, kind, name] = s.name.split('.') as [string, string, string];
      if (owner !== prefix) return;
      if (kind === 'column') columns[name] = columnOf(s.type!, buffers[i]!);
      else chunks[Number(name)] = buffers[i]!;
    });
    return { meta, columns, chunks };
  };
  return { listings: image('listings', head.listings), members: image('members', head.members) };
}

/** The first index whose value is greater than `value` (values ascending). */
function upperBound(values: number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export type SnapshotHead = Head;
