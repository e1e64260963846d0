import { mongo } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra } from './helpers.ts';

// The kit's state transitions and counters rely on MongoDB's single-document atomicity; the
// local FerretDB lacks it on its own (infra/ferretdb/main.go), so the store is checked here.
let infra: Awaited<ReturnType<typeof testInfra>>;
/** FerretDB says so in buildInfo; MongoDB does not. Asked of the server, not read from a plan. */
let ferretdb = false;
beforeAll(async () => {
  infra = await testInfra('kit-store');
  ferretdb = 'ferretdbVersion' in (await infra.db.db!.admin().command({ buildInfo: 1 }));
});
afterAll(() => infra.close());

/**
 * What an `_id` lookup's plan must show, whichever store runs: on FerretDB (SQLite) the filter
 * pushed down and SQLite searching the `_id` index; on MongoDB its own `_id` stages (IDHACK, or
 * FETCH over IXSCAN of `_id_`).
 */
function expectIdIndex(plan: string) {
  if (ferretdb) {
    expect(plan).toMatch(/"filterPushdown":true/);
    expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
  } else {
    expect(plan).toMatch(/IDHACK|EXPRESS_IXSCAN|"indexName":"_id_"/);
  }
}

describe('the document store', () => {
  it('lets exactly one of several concurrent conditional updates win', async () => {
    const docs = infra.db.collection<{ _id: number; status: string }>('transitions');
    for (let round = 0; round < 20; round++) {
      await docs.insertOne({ _id: round, status: 'Pending' });
      const attempts = await Promise.all(
        Array.from({ length: 4 }, () => docs.updateOne({ _id: round, status: 'Pending' }, { $set: { status: 'Accepted' } })),
      );
      expect(attempts.reduce((sum, r) => sum + r.modifiedCount, 0)).toBe(1);
    }
  });

  it('loses no concurrent $inc', async () => {
    const counters = infra.db.collection<{ _id: string; n: number }>('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    await Promise.all(Array.from({ length: 100 }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })));
    expect((await counters.findOne({ _id: 'c' }))?.n).toBe(100);
  });

  it('lets one of several concurrent upserts insert and reports duplicates as 11000', async () => {
    const docs = infra.db.collection<{ _id: string; by?: number }>('upserts');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, by) => docs.updateOne({ _id: 'u' }, { $setOnInsert: { by } }, { upsert: true })),
    );
    expect(results.reduce((sum, r) => sum + r.upsertedCount, 0)).toBe(1);
    await expect(docs.insertOne({ _id: 'u' })).rejects.toMatchObject({ code: 11000 });
  });
});

describe('lookups by _id', () => {
  // Every read or change of one document goes by its _id; on the local FerretDB that uses the
  // _id index only through our fix (infra/ferretdb/overlay), otherwise each one scans the table.
  type Doc = { _id: string; n: number; tag?: string };
  const ids = Array.from({ length: 300 }, (_, i) => `doc-${String(i).padStart(4, '0')}`);
  let docs: ReturnType<typeof infra.db.collection<Doc>>;
  beforeAll(async () => {
    docs = infra.db.collection<Doc>('by-id');
    await docs.insertMany(ids.map((_id, n) => ({ _id, n, ...(n % 2 ? { tag: 'odd' } : {}) })));
  });

  it('answer exactly as the whole filter says, with other keys, $eq and $in', async () => {
    expect(await docs.findOne({ _id: 'doc-0007' })).toEqual({ _id: 'doc-0007', n: 7, tag: 'odd' });
    expect(await docs.findOne({ _id: 'doc-0007', tag: { $exists: false } })).toBeNull();
    expect(await docs.findOne({ _id: { $eq: 'doc-0008' }, tag: { $exists: false } })).toEqual({ _id: 'doc-0008', n: 8 });
    const found = await docs.find({ _id: { $in: ['doc-0001', 'doc-0002', 'doc-0003', 'missing'] }, tag: 'odd' }).sort({ n: 1 }).toArray();
    expect(found.map((d) => d._id)).toEqual(['doc-0001', 'doc-0003']);
    expect(await docs.countDocuments({ _id: { $in: ['doc-0001', 'doc-0002'] } })).toBe(2);
  });

  it('change and delete only the matching document, conditions included', async () => {
    expect((await docs.updateOne({ _id: 'doc-0010', n: 99 }, { $set: { n: -1 } })).modifiedCount).toBe(0);
    expect((await docs.updateOne({ _id: 'doc-0010', n: 10 }, { $set: { n: 1000 } })).modifiedCount).toBe(1);
    expect((await docs.findOneAndUpdate({ _id: 'doc-0011', tag: 'odd' }, { $inc: { n: 1 } }, { returnDocument: 'after' }))?.n).toBe(12);
    expect((await docs.deleteOne({ _id: 'doc-0012', tag: 'odd' })).deletedCount).toBe(0);
    expect((await docs.deleteOne({ _id: 'doc-0013', tag: 'odd' })).deletedCount).toBe(1);
    expect((await docs.deleteMany({ _id: { $in: ['doc-0014', 'doc-0015'] } })).deletedCount).toBe(2);
    expect(await docs.find({ _id: { $in: ['doc-0010', 'doc-0011', 'doc-0012', 'doc-0013', 'doc-0014', 'doc-0015', 'doc-0016'] } }).sort({ _id: 1 }).project({ n: 1 }).toArray()).toEqual([
      { _id: 'doc-0010', n: 1000 },
      { _id: 'doc-0011', n: 12 },
      { _id: 'doc-0012', n: 12 },
      { _id: 'doc-0016', n: 16 },
    ]);
  });

  it('find numeric ids whatever number type stored them, through the index', async () => {
    const numbered = infra.db.collection<{ _id: number | mongo.Long | mongo.Double; n: number }>('by-number');
    await numbered.insertMany([
      { _id: 1, n: 1 },
      { _id: new mongo.Long(2), n: 2 },
      { _id: new mongo.Double(3), n: 3 },
      { _id: 4.5, n: 4 },
      { _id: 2 ** 40, n: 5 },
    ]);
    expect((await numbered.findOne({ _id: 1, n: 1 }))?.n).toBe(1);
    expect((await numbered.findOne({ _id: 2 }))?.n).toBe(2);
    expect((await numbered.findOne({ _id: new mongo.Long(3) }))?.n).toBe(3);
    expect((await numbered.findOne({ _id: new mongo.Double(2) }))?.n).toBe(2);
    expect((await numbered.findOne({ _id: 4.5 }))?.n).toBe(4);
    expect((await numbered.findOne({ _id: 2 ** 40 }))?.n).toBe(5);
    expect((await numbered.find({ _id: { $in: [1, 3, 4.5, 7] } }).sort({ n: 1 }).toArray()).map((d) => d.n)).toEqual([1, 3, 4]);
    expect((await numbered.updateOne({ _id: 3, n: 3 }, { $set: { n: 30 } })).modifiedCount).toBe(1);
    expectIdIndex(JSON.stringify(await numbered.find({ _id: 2, n: 2 }).explain()));
  });

  it('use the _id index, also next to other keys', async () => {
    expectIdIndex(JSON.stringify(await docs.find({ _id: 'doc-0020', tag: { $exists: false } }).explain()));
    expectIdIndex(JSON.stringify(await docs.find({ _id: { $in: ['doc-0020', 'doc-0021'] } }).explain()));
  });
});

describe('lookups by an indexed field', () => {
  // A login's email, a member's wishlist, GridFS's chunks of one file: on the local FerretDB these
  // use the field's index only through our fix (infra/ferretdb/overlay), otherwise they scan the table.
  type Entry = { _id: string; userId: string; listingId: string; file: mongo.ObjectId; open: boolean; n: number; tags?: string[] };
  const files = Array.from({ length: 5 }, () => new mongo.ObjectId());
  let entries: ReturnType<typeof infra.db.collection<Entry>>;
  beforeAll(async () => {
    entries = infra.db.collection<Entry>('by-field');
    await entries.createIndex({ userId: 1, listingId: 1 }, { unique: true });
    await entries.createIndex({ file: 1 });
    await entries.createIndex({ open: 1, _id: 1 });
    await entries.createIndex({ tags: 1 });
    await entries.insertMany(
      Array.from({ length: 300 }, (_, i) => ({ _id: `e-${i}`, userId: `u-${i % 30}`, listingId: `l-${i}`, file: files[i % 5]!, open: i % 100 === 0, n: i })),
    );
  });

  /** On FerretDB: pushed down, and SQLite searching the named index; on MongoDB: an index scan of it. */
  function expectIndex(plan: string, name: string) {
    if (ferretdb) {
      expect(plan).toMatch(/"filterPushdown":true/);
      expect(plan).toMatch(new RegExp(`SEARCH \\S+ USING INDEX \\S+_${name}`));
    } else {
      expect(plan).toMatch(new RegExp(`"indexName":"${name}"`));
    }
  }

  it('answer exactly as the whole filter says', async () => {
    expect((await entries.find({ userId: 'u-3' }).sort({ n: 1 }).toArray()).map((e) => e.n)).toEqual([3, 33, 63, 93, 123, 153, 183, 213, 243, 273]);
    expect(await entries.findOne({ userId: 'u-3', listingId: 'l-33' }, { projection: { n: 1 } })).toEqual({ _id: 'e-33', n: 33 });
    expect(await entries.findOne({ userId: 'u-3', listingId: 'l-34' })).toBeNull();
    expect(await entries.countDocuments({ userId: { $in: ['u-1', 'u-2'] }, n: { $lt: 100 } })).toBe(8);
    expect(await entries.countDocuments({ file: files[2] })).toBe(60);
    expect((await entries.find({ open: true }).sort({ n: 1 }).toArray()).map((e) => e.n)).toEqual([0, 100, 200]);
    expect((await entries.updateMany({ userId: 'u-4', n: { $gte: 200 } }, { $set: { open: true } })).modifiedCount).toBe(3);
    expect(await entries.countDocuments({ open: true })).toBe(6);
    expect((await entries.deleteOne({ userId: 'u-5', listingId: 'l-35' })).deletedCount).toBe(1);
    expect(await entries.countDocuments({ userId: 'u-5' })).toBe(9);
  });

  it('match an array holding the value too, as MongoDB does', async () => {
    await entries.insertMany([
      { _id: 'a-1', userId: 'u-a', listingId: 'l-a1', file: files[0]!, open: false, n: 1000, tags: ['red', 'blue'] },
      { _id: 'a-2', userId: 'u-a', listingId: 'l-a2', file: files[0]!, open: false, n: 1001, tags: ['blue'] },
      { _id: 'a-3', userId: 'u-a', listingId: 'l-a3', file: files[0]!, open: false, n: 1002, tags: [] },
    ]);
    await infra.db.collection('by-field').insertOne({ _id: 'a-4', userId: ['u-b', 'u-c'], listingId: 'l-a4', n: 1003, tags: 'red' } as never);
    expect((await entries.find({ tags: 'red' }).sort({ n: 1 }).toArray()).map((e) => e._id)).toEqual(['a-1', 'a-4']);
    expect((await entries.find({ tags: { $in: ['blue', 'green'] } }).sort({ n: 1 }).toArray()).map((e) => e._id)).toEqual(['a-1', 'a-2']);
    expect((await entries.find({ userId: 'u-c' }).toArray()).map((e) => e._id)).toEqual(['a-4']);
    expect((await entries.updateMany({ tags: 'blue' }, { $pull: { tags: 'blue' } })).modifiedCount).toBe(2);
    expect(await entries.countDocuments({ tags: 'blue' })).toBe(0);
    expectIndex(JSON.stringify(await entries.find({ tags: 'red' }).explain()), 'tags_1');
  });

  it('use the field index, the first key of a compound one too', async () => {
    expectIndex(JSON.stringify(await entries.find({ userId: 'u-3', listingId: 'l-33' }).explain()), 'userId_1_listingId_1');
    expectIndex(JSON.stringify(await entries.find({ file: files[1] }).explain()), 'file_1');
    expectIndex(JSON.stringify(await entries.find({ open: true }).explain()), 'open_1__id_1');
  });
});
