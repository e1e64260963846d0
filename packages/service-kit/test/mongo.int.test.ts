// The one data-access style on the real store: the driver's typed collection from the connection,
// and the indexes that were declared on mongoose schemas, created by hand and still enforced.
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, ensureIndexes, exists } from '../src/index.ts';
import { testInfra } from './helpers.ts';

let infra: Awaited<ReturnType<typeof testInfra>>;

beforeAll(async () => {
  infra = await testInfra('kit-mongo');
});
afterAll(async () => {
  await infra.close();
});

interface Entry {
  _id: string;
  userId: string;
  listingId: string;
  at: Date;
}

describe('collection', () => {
  it('is the driver collection of the connection, typed, storing exactly what is written', async () => {
    const entries = collection<Entry>(infra.db, 'kit_entries');
    const at = new Date('2026-01-02T03:04:05.000Z');
    await entries.insertOne({ _id: 'a', userId: 'u1', listingId: 'l1', at });
    // No schema: no `__v`, no timestamps, no defaults; the same collection through the connection.
    expect(await infra.db.db!.collection('kit_entries').findOne({ _id: 'a' } as never)).toEqual({ _id: 'a', userId: 'u1', listingId: 'l1', at });
    const updated = await entries.findOneAndUpdate({ _id: 'a', userId: 'u1' }, { $set: { listingId: 'l2' } }, { returnDocument: 'after' });
    expect(updated?.listingId).toBe('l2');
    expect(await exists(entries, { _id: 'a', listingId: 'l2' })).toBe(true);
    expect(await exists(entries, { _id: 'a', listingId: 'l1' })).toBe(false);
  });

  it('refuses a connection that was never opened', () => {
    const idle = mongoose.createConnection();
    expect(() => collection(idle, 'x')).toThrow(/before the store is connected/);
  });
});

describe('ensureIndexes', () => {
  it('creates unique and compound indexes, idempotently, and the unique one refuses a duplicate', async () => {
    const entries = collection<Entry>(infra.db, 'kit_wishlist');
    const specs = [{ key: { userId: 1, listingId: 1 }, unique: true }, { key: { listingId: 1 } }, { key: { userId: 1, at: -1 } }] as const;
    await ensureIndexes(entries, specs);
    await ensureIndexes(entries, specs); // again at the next start: no error, nothing new
    const indexes = await entries.listIndexes().toArray();
    expect(indexes.map((i) => i.name).sort()).toEqual(['_id_', 'listingId_1', 'userId_1_at_-1', 'userId_1_listingId_1']);
    expect(indexes.find((i) => i.name === 'userId_1_listingId_1')?.unique).toBe(true);

    await entries.insertOne({ _id: 'w1', userId: 'u', listingId: 'l', at: new Date(0) });
    await expect(entries.insertOne({ _id: 'w2', userId: 'u', listingId: 'l', at: new Date(0) })).rejects.toMatchObject({ code: 11000 });
    await entries.insertOne({ _id: 'w3', userId: 'u', listingId: 'other', at: new Date(0) });
    expect(await entries.countDocuments({})).toBe(2);
  });

  it('does nothing for no indexes', async () => {
    await ensureIndexes(collection<Entry>(infra.db, 'kit_none'), []);
  });
});
