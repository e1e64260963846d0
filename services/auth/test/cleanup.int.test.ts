import { randomUUID } from 'node:crypto';
import { eventRegistry, tokenVersionKey } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, consume, ensureStream, startOutboxRelay, type Bus, type Connection, type OutboxRelay, type Worker } from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertUser, userCollection, userIdOf, type UserCollection } from '../src/accounts/model.ts';
import { avatarStore } from '../src/avatars/store.ts';
import { refreshCollection } from '../src/accounts/refresh.ts';
import { claimDeletion, deletionCollection, type DeletionCollection, type DeletionDeps } from '../src/cleanup/deletion.ts';
import { blockCollection } from '../src/blocks/model.ts';
import { inactiveBefore, startInactivityCleanup, type InactivityCleanup } from '../src/cleanup/inactive.ts';
import { userStatsCollection } from '../src/users/stats.ts';

const logger = silentLogger();
let db: Connection;
let bus: Bus;
let redis: RedisClientType;
let users: UserCollection;
let deletions: DeletionCollection;
let relay: OutboxRelay;
let consumer: Worker;
let deps: DeletionDeps;
const deleted: { id: string; userId: string }[] = [];
const running: InactivityCleanup[] = [];

/** The job's clock: 1 March 2030, noon UTC. */
const NOW = new Date('2030-03-01T12:00:00Z');
const monthsBefore = (months: number, extraMs = 0) => {
  const d = new Date(NOW);
  d.setUTCMonth(d.getUTCMonth() - months);
  return new Date(d.getTime() + extraMs);
};

beforeAll(async () => {
  const { mongoUrl, natsUrl, redisUrl } = testStores();
  [db, bus] = await Promise.all([connectMongo(mongoUrl, `auth-cleanup-${randomUUID().slice(0, 8)}`), connectBus(natsUrl, 'auth-cleanup-test')]);
  redis = createClient({ url: redisUrl });
  await redis.connect();
  users = userCollection(db);
  deletions = deletionCollection(db);
  await ensureStream(bus, 'auth');
  relay = startOutboxRelay({ bus, db, collections: [users.collectionName, deletions.collectionName], logger, intervalMs: 200 });
  deps = { users, deletions, redis, relay, avatars: avatarStore(db), stats: userStatsCollection(db), refreshTokens: refreshCollection(db), blocks: blockCollection(db) };
  consumer = await consume(bus, {
    durable: `test-cleanup-${randomUUID().slice(0, 8)}`,
    registry: eventRegistry,
    subjects: ['auth.user.deleted'],
    db,
    logger,
    handler: async (event) => {
      deleted.push({ id: event.id, userId: event.payload.id });
    },
  });
});
afterAll(async () => {
  await consumer.stop();
  await relay.stop();
  await db.dropDatabase();
  await Promise.all([db.close(), bus.nc.drain(), redis.quit()]);
});
beforeEach(async () => {
  for (const job of running.splice(0)) await job.stop();
  await users.deleteMany({});
});

async function createUser(lastActiveAt: Date) {
  const user = await insertUser(users, {
    firstName: 'Slapend',
    lastName: 'Lid',
    email: `slaper-${randomUUID()}@voorbeeld.nl`,
    passwordHash: 'x',
    activated: true,
    lastActiveAt,
  });
  return user._id.toString();
}

/** A job that only runs when the test says (the schedule is far away) and reads the given clock. */
function job(clock: () => Date = () => NOW, redisClient: DeletionDeps['redis'] = redis) {
  const cleanup = startInactivityCleanup({ ...deps, redis: redisClient, logger, now: clock, firstRunAfterMs: 3600_000, intervalMs: 3600_000 });
  running.push(cleanup);
  return cleanup;
}

const deletedEventsOf = (userId: string) => deleted.filter((e) => e.userId === userId);
const remaining = async (ids: string[]) => (await users.find({ _id: { $in: ids.map(userIdOf) } }, { projection: { _id: 1 } }).toArray()).map((u) => u._id.toString()).sort();

describe('inactiveBefore', () => {
  it('is 24 calendar months before now', () => {
    expect(inactiveBefore(NOW).toISOString()).toBe('2028-03-01T12:00:00.000Z');
    expect(inactiveBefore(new Date('2030-12-31T00:00:00Z')).toISOString()).toBe('2028-12-31T00:00:00.000Z');
  });
});

describe('inactive account cleanup', () => {
  it('deletes accounts idle for more than 24 months, revokes their tokens and announces each once', async () => {
    const idle = await createUser(monthsBefore(25));
    const justOver = await createUser(monthsBefore(24, -1000));
    const justUnder = await createUser(monthsBefore(24, 1000));
    const recent = await createUser(monthsBefore(1));
    const logins = refreshCollection(db);
    const login = (userId: string) => ({ _id: randomUUID(), userId, tokenVersion: 0, tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 3600_000), createdAt: new Date() });
    await logins.insertMany([login(idle), login(recent)]);

    expect(await job().run()).toBe(2);
    // A deleted account keeps no login; another member's is untouched.
    expect(await logins.countDocuments({ userId: idle })).toBe(0);
    expect(await logins.countDocuments({ userId: recent })).toBe(1);
    expect(await remaining([idle, justOver, justUnder, recent])).toEqual([justUnder, recent].sort());
    for (const id of [idle, justOver]) {
      expect(Number(await redis.get(tokenVersionKey(id)))).toBeGreaterThan(0);
      expect(await deletions.findOne({ _id: id })).toMatchObject({ reason: 'inactive', deletedAt: NOW });
      await expect.poll(() => deletedEventsOf(id).length, { timeout: 10_000 }).toBe(1);
    }
    expect(await redis.get(tokenVersionKey(justUnder))).toBeNull();

    // A month later the next account has crossed the line; nothing is deleted or announced twice.
    const later = new Date(NOW);
    later.setUTCMonth(later.getUTCMonth() + 1);
    expect(await job(() => later).run()).toBe(1);
    expect(await remaining([justUnder, recent])).toEqual([recent]);
    await relay.flush();
    await new Promise((r) => setTimeout(r, 400));
    for (const id of [idle, justOver]) expect(deletedEventsOf(id)).toHaveLength(1);
  });

  it('deletes every account once when two replicas run at the same moment', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await createUser(monthsBefore(30)));
    const counts = await Promise.all([job().run(), job().run()]);
    expect(counts[0] + counts[1]).toBe(30);
    expect(await remaining(ids)).toEqual([]);
    await expect.poll(() => ids.filter((id) => deletedEventsOf(id).length === 1).length, { timeout: 15_000 }).toBe(30);
    expect(ids.flatMap(deletedEventsOf)).toHaveLength(30);
  });

  it('keeps an account whose member came back after the pass picked it', async () => {
    const id = await createUser(monthsBefore(30));
    await users.updateOne({ _id: userIdOf(id) }, { $set: { lastActiveAt: NOW } });
    // The claim re-checks inactivity in the same write, as the job does for every candidate.
    expect(await claimDeletion(users, id, { reason: 'inactive' }, { lastActiveAt: { $lt: inactiveBefore(NOW) } })).toBeUndefined();
    expect(await job().run()).toBe(0);
    expect(await remaining([id])).toEqual([id]);
  });

  it('leaves the account claimed when Redis is down, and finishes it on a later pass', async () => {
    const id = await createUser(monthsBefore(30));
    const closed: DeletionDeps['redis'] = createClient({ url: testStores().redisUrl });
    await expect(job(() => NOW, closed).run()).rejects.toThrow();
    expect(await remaining([id])).toEqual([id]);
    expect(await deletions.findOne({ _id: id })).toBeNull();

    // The next pass, a while later, finishes the claimed deletion with the claim's own event.
    const claimed = await users.findOne({ _id: new Types.ObjectId(id) });
    const eventId = (claimed as { deletion?: { eventId: string } } | null)?.deletion?.eventId;
    expect(eventId).toBeDefined();
    expect(await job(() => new Date(NOW.getTime() + 120_000)).run()).toBe(0);
    expect(await remaining([id])).toEqual([]);
    await expect.poll(() => deletedEventsOf(id).map((e) => e.id), { timeout: 10_000 }).toEqual([eventId]);
  });

  it('runs soon after start, then on its schedule, and stops cleanly', async () => {
    const id = await createUser(monthsBefore(30));
    const scheduled = startInactivityCleanup({ ...deps, logger, now: () => NOW, firstRunAfterMs: 20, intervalMs: 100 });
    running.push(scheduled);
    await expect.poll(() => remaining([id]), { timeout: 5_000 }).toEqual([]);
    const next = await createUser(monthsBefore(30));
    await expect.poll(() => remaining([next]), { timeout: 5_000 }).toEqual([]);
    await scheduled.stop();
    const after = await createUser(monthsBefore(30));
    await new Promise((r) => setTimeout(r, 200));
    expect(await remaining([after])).toEqual([after]);
  });
});
