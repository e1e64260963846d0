import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CLAIM_RETENTION_MS, claimCleanupUsers, consume, ensureStream, forgetHandledEvents, startClaimCleanup, type Round } from '../src/index.ts';
import { silentLogger } from '../src/testing.ts';
import { testInfra } from './helpers.ts';

const logger = silentLogger();
let infra: Awaited<ReturnType<typeof testInfra>>;

beforeAll(async () => {
  infra = await testInfra('kit-claims');
  await ensureStream(infra.bus, 'kitc');
});
afterAll(() => infra.close());

type Claim = { _id: string; state: 'processing' | 'released' | 'done'; at: Date };
const claims = () => infra.db.collection<Claim>('consumed_events');
const ago = (ms: number) => new Date(Date.now() - ms);

/** Handled long ago (to forget), handled lately, and claims still in play (kept whatever their age). */
async function seed(prefix: string) {
  const old = ago(CLAIM_RETENTION_MS + 60_000);
  const docs: Claim[] = [
    ...[1, 2, 3, 4, 5].map((n) => ({ _id: `${prefix}-old-${n}`, state: 'done' as const, at: old })),
    { _id: `${prefix}-fresh-1`, state: 'done', at: ago(1000) },
    { _id: `${prefix}-fresh-2`, state: 'done', at: ago(CLAIM_RETENTION_MS - 60_000) },
    { _id: `${prefix}-busy`, state: 'processing', at: old },
    { _id: `${prefix}-released`, state: 'released', at: old },
  ];
  await claims().insertMany(docs);
}
const left = async (prefix: string) => (await claims().find({ _id: { $regex: `^${prefix}-` } }).toArray()).map((c) => c._id).sort();

describe('claim clean-up', () => {
  it('forgets handled events past their retention, a page of ids at a time with a pause between pages', async () => {
    await seed('paged');
    let pauses = 0;
    const round: Round = {
      stopped: false,
      pace: async () => {
        pauses++;
      },
    };
    expect(await forgetHandledEvents(infra.db, ago(CLAIM_RETENTION_MS), round, 2)).toBe(5);
    expect(pauses).toBe(3); // pages of 2, 2 and 1
    expect(await left('paged')).toEqual(['paged-busy', 'paged-fresh-1', 'paged-fresh-2', 'paged-released']);
  });

  it('stops between pages when its job stops', async () => {
    await seed('stopping');
    let stopped = false;
    const round: Round = {
      get stopped() {
        return stopped;
      },
      pace: async () => {
        stopped = true;
      },
    };
    expect(await forgetHandledEvents(infra.db, ago(CLAIM_RETENTION_MS), round, 2)).toBe(2);
    await claims().deleteMany({ _id: { $regex: '^stopping-' } });
  });

  it('runs as one periodic job per store connection, whatever the number of consumers, gone with the last', async () => {
    const registry = { 'kitc.thing.done': z.object({ n: z.number() }) };
    const start = (durable: string) => consume(infra.bus, { durable, registry, subjects: ['kitc.thing.done'], db: infra.db, logger, handler: async () => {} });
    const a = await start('claims-a');
    const b = await start('claims-b');
    expect(claimCleanupUsers(infra.db)).toBe(2);
    await a.stop();
    expect(claimCleanupUsers(infra.db)).toBe(1);
    await b.stop();
    expect(claimCleanupUsers(infra.db)).toBe(0);

    await seed('job');
    const job = startClaimCleanup(infra.db, logger, 3600_000);
    try {
      expect(await job.run()).toBeGreaterThanOrEqual(5);
    } finally {
      await job.stop();
    }
    expect(await left('job')).toEqual(['job-busy', 'job-fresh-1', 'job-fresh-2', 'job-released']);
  });
});
