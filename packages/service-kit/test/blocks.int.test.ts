// The block projection every follower keeps, on the real store and NATS: both directions, newest per
// pair, a deleted member's relations gone both ways, and the events on the members durable.
import { randomBytes } from 'node:crypto';
import { eventRegistry, type BlockEvent } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockTable, blockProjection, createEvent, memberProjection, publishEvent, type Worker } from '../src/index.ts';
import { silentLogger } from '../src/testing.ts';
import { testInfra, waitFor } from './helpers.ts';

let infra: Awaited<ReturnType<typeof testInfra>>;
const workers: Worker[] = [];

beforeAll(async () => {
  infra = await testInfra('kit-blocks');
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await infra.close();
});

const newId = () => randomBytes(12).toString('hex');
const pair = (blockerId: string, blockedId: string, version: number): BlockEvent => ({ blockerId, blockedId, version, at: '2026-01-01T00:00:00.000Z' });

describe('blockProjection', () => {
  it('hides both members from each other, keeps the newest state per pair, and ignores older ones', async () => {
    const blocks = blockProjection(infra.db, { collection: 'blocks_pairs' });
    const [a, b, c] = [newId(), newId(), newId()];
    await blocks.apply(pair(a.toUpperCase(), b, 1), true);
    expect(await blocks.blockedEitherWay(a, b)).toBe(true);
    expect(await blocks.blockedEitherWay(b, a)).toBe(true);
    expect(await blocks.blockedEitherWay(a, c)).toBe(false);
    expect([...(await blocks.hiddenFor(b))]).toEqual([a]);
    // B blocks A as well; A lifting theirs leaves B's.
    await blocks.apply(pair(b, a, 1), true);
    await blocks.apply(pair(a, b, 2), false);
    expect(await blocks.blockedEitherWay(a, b)).toBe(true);
    await blocks.apply(pair(b, a, 2), false);
    expect(await blocks.blockedEitherWay(a, b)).toBe(false);
    // A late redelivery of the first block changes nothing.
    await blocks.apply(pair(a, b, 1), true);
    expect(await blocks.hiddenFor(a)).toEqual(new Set());
  });

  it("drops a deleted member's relations both ways and takes no later event about them", async () => {
    const blocks = blockProjection(infra.db, { collection: 'blocks_deleted' });
    const [gone, x, y] = [newId(), newId(), newId()];
    await blocks.apply(pair(gone, x, 1), true);
    await blocks.apply(pair(y, gone, 1), true);
    await blocks.apply(pair(x, y, 1), true);
    await blocks.forget(gone);
    expect(await blocks.hiddenFor(x)).toEqual(new Set([y]));
    expect(await blocks.hiddenFor(y)).toEqual(new Set([x]));
    await blocks.apply(pair(gone, y, 3), true);
    expect(await blocks.hiddenFor(y)).toEqual(new Set([x]));
    expect(await blocks.collection.findOne({ _id: gone })).toEqual({ _id: gone, deleted: true });
  });

  it('follows the block events and deletions on the members durable, and tells the service of each change', async () => {
    const members = memberProjection(infra.db, { fields: ['firstName'], collection: 'members_blocks' });
    const blocks = blockProjection(infra.db, { collection: 'blocks_events' });
    const [a, b] = [newId(), newId()];
    // Other files' block events are on the stream too: only this pair's are looked at.
    const changes: Array<[string, boolean]> = [];
    workers.push(
      await members.consume(infra.bus, {
        durable: `kit-blocks-${newId().slice(0, 8)}`,
        logger: silentLogger(),
        blocks: { projection: blocks, changed: async (event, added) => void (event.blockerId === a && changes.push([event.blockedId, added])) },
      }),
    );
    await publishEvent(infra.bus, createEvent(eventRegistry, 'auth.block.added', pair(a, b, 1)));
    await waitFor(() => changes.length === 1);
    expect(changes[0]).toEqual([b, true]);
    expect(await blocks.blockedEitherWay(b, a)).toBe(true);
    await publishEvent(infra.bus, createEvent(eventRegistry, 'auth.user.deleted', { id: b, version: 2 }));
    await waitFor(async () => !(await blocks.blockedEitherWay(a, b)));
  });
});

describe('BlockTable', () => {
  it('loads the stored relation and then follows the events like the projection', async () => {
    const blocks = blockProjection(infra.db, { collection: 'blocks_table' });
    const [a, b, c, d] = [newId(), newId(), newId(), newId()];
    await blocks.apply(pair(a, b, 1), true);
    await blocks.apply(pair(c, a, 2), true);
    await blocks.apply(pair(d, b, 1), true);
    await blocks.forget(d);
    const table = new BlockTable();
    for await (const doc of blocks.collection.find()) table.load(doc);
    expect(table.hiddenFor(a)).toEqual(new Set([b, c]));
    expect(table.hiddenFor(b)).toEqual(new Set([a]));
    // An event the load already reflects changes nothing; a newer one does.
    expect(table.apply(pair(c, a, 2), true)).toBe(false);
    expect(table.apply(pair(c, a, 3), false)).toBe(true);
    expect(table.hiddenFor(c)).toEqual(new Set());
    expect(table.apply(pair(d, a, 5), true)).toBe(false);
    table.forget(b);
    expect(table.hiddenFor(a)).toEqual(new Set());
    expect(table.size).toBe(0);
  });
});
