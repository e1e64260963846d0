import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra } from './helpers.ts';

// The kit's state transitions and counters rely on MongoDB's single-document atomicity; the
// local FerretDB lacks it on its own (infra/ferretdb/main.go), so the store is checked here.
let infra: Awaited<ReturnType<typeof testInfra>>;
beforeAll(async () => {
  infra = await testInfra('kit-store');
});
afterAll(() => infra.close());

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
