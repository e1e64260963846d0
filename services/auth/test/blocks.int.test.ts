// Blocking another member on the real store and NATS: the routes, the refusals with their Dutch
// messages, the events per pair, the limit, and an account's deletion ending its relations both ways.
import { randomUUID } from 'node:crypto';
import { BLOCK_MAX, BLOCK_MESSAGES, blockRoutes, eventRegistry, USER_MESSAGES, adminUserRoutes, type BlockEvent, type Role } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, consume, createApp, ensureIndexes, ensureStream, joinHandlers, startOutboxRelay, type Bus, type Connection, type OutboxRelay, type Worker } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, userCollection, type UserCollection, type UserDoc } from '../src/accounts/model.ts';
import { refreshCollection } from '../src/accounts/refresh.ts';
import { adminUserHandlers } from '../src/admin/routes.ts';
import { avatarStore } from '../src/avatars/store.ts';
import { BLOCK_INDEXES, blockCollection, type BlockCollection } from '../src/blocks/model.ts';
import { blockHandlers } from '../src/blocks/routes.ts';
import { deletionCollection } from '../src/cleanup/deletion.ts';
import { userStatsCollection } from '../src/users/stats.ts';

const logger = silentLogger();
let db: Connection;
let bus: Bus;
let redis: RedisClientType;
let issuer: TestIssuer;
let users: UserCollection;
let blocks: BlockCollection;
let relay: OutboxRelay;
let events: Worker;
let server: Awaited<ReturnType<typeof listen>>;
const published: Array<{ type: string; payload: BlockEvent }> = [];

beforeAll(async () => {
  const { mongoUrl, natsUrl, redisUrl } = testStores();
  redis = createClient({ url: redisUrl });
  await redis.connect();
  [db, bus, issuer] = await Promise.all([connectMongo(mongoUrl, `auth-blocks-${randomUUID().slice(0, 8)}`), connectBus(natsUrl, 'auth-blocks-test'), createTestIssuer()]);
  users = userCollection(db);
  blocks = blockCollection(db);
  await ensureIndexes(blocks, BLOCK_INDEXES);
  const deletions = deletionCollection(db);
  await ensureStream(bus, 'auth');
  relay = startOutboxRelay({ bus, db, collections: [users.collectionName, deletions.collectionName, blocks.collectionName], logger, intervalMs: 200 });
  const deletion = { users, deletions, redis, relay, avatars: avatarStore(db), stats: userStatsCollection(db), refreshTokens: refreshCollection(db), blocks };
  server = await listen(
    createApp({
      service: 'auth',
      logger,
      redis,
      verifyToken: issuer.verifyToken,
      routes: { block: blockRoutes, adminUser: adminUserRoutes },
      handlers: joinHandlers(blockHandlers({ users, blocks, announce: relay.kick }), adminUserHandlers(deletion)),
    }),
  );
  events = await consume(bus, {
    durable: `test-blocks-${randomUUID().slice(0, 8)}`,
    registry: eventRegistry,
    subjects: ['auth.block.added', 'auth.block.removed'],
    db,
    logger,
    handler: async (event) => void published.push({ type: event.type, payload: event.payload }),
  });
});
afterAll(async () => {
  await server.close();
  await events.stop();
  await relay.stop();
  await db.dropDatabase();
  await Promise.all([db.close(), bus.nc.drain(), issuer.close(), redis.quit()]);
});

let counter = 0;
async function member(fields: Partial<UserDoc> & { roles?: Role[] } = {}) {
  counter += 1;
  const doc = await insertUser(users, {
    firstName: `Lid${counter}`,
    lastName: 'de Vries',
    email: `lid${counter}-${randomUUID().slice(0, 6)}@voorbeeld.nl`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    activated: true,
    ...fields,
  });
  const id = doc._id.toString();
  return { id, firstName: doc.firstName, token: await issuer.sign({ sub: id, roles: doc.roles }) };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (method: string, path: string, token: string) => fetch(server.url + path, { method, headers: auth(token) });
const block = (token: string, userId: string) => call('POST', `/api/user/block/${userId}`, token);
const unblock = (token: string, userId: string) => call('DELETE', `/api/user/block/${userId}`, token);
const list = async (token: string) => body(await call('GET', '/api/user/blocks', token));
const eventsOf = (blockerId: string) => published.filter((e) => e.payload.blockerId === blockerId);

describe('blocking a member', () => {
  it('blocks, lists with names, unblocks; repeats change nothing and announce nothing', async () => {
    const anna = await member();
    const bram = await member();
    const cor = await member();
    expect((await block(anna.token, bram.id)).status).toBe(204);
    expect((await block(anna.token, bram.id.toUpperCase())).status).toBe(204);
    expect((await block(anna.token, cor.id)).status).toBe(204);
    const listed = await list(anna.token);
    expect(listed.map((b: { userId: string }) => b.userId)).toEqual([cor.id, bram.id]);
    expect(listed[1]).toEqual({ userId: bram.id, firstName: bram.firstName, lastName: 'de Vries', since: expect.any(String) });
    // The blocked member is told nothing: their own list is empty.
    expect(await list(bram.token)).toEqual([]);

    expect((await unblock(anna.token, bram.id)).status).toBe(204);
    expect((await unblock(anna.token, bram.id)).status).toBe(204);
    expect((await list(anna.token)).map((b: { userId: string }) => b.userId)).toEqual([cor.id]);
    expect((await block(anna.token, bram.id)).status).toBe(204);

    await expect.poll(() => eventsOf(anna.id).length, { timeout: 10_000 }).toBe(4);
    const bramEvents = eventsOf(anna.id).filter((e) => e.payload.blockedId === bram.id);
    // One event per change of the pair, its version one higher each time.
    expect(bramEvents.map((e) => [e.type, e.payload.version])).toEqual([
      ['auth.block.added', 1],
      ['auth.block.removed', 2],
      ['auth.block.added', 3],
    ]);
  });

  it('refuses oneself, an admin and an unknown member with their messages; a malformed id is a 400', async () => {
    const anna = await member();
    const admin = await member({ roles: ['Gebruiker', 'Beheerder'] });
    const moderator = await member({ roles: ['Moderator'] });
    const pending = await member({ activated: false });
    const own = await block(anna.token, anna.id);
    expect([own.status, (await body(own)).message]).toEqual([400, BLOCK_MESSAGES.self]);
    for (const who of [admin, moderator]) {
      const res = await block(anna.token, who.id);
      expect([res.status, (await body(res)).message]).toEqual([400, BLOCK_MESSAGES.admin]);
    }
    for (const id of [new Types.ObjectId().toString(), pending.id]) {
      const res = await block(anna.token, id);
      expect([res.status, (await body(res)).message]).toEqual([404, USER_MESSAGES.userNotFound]);
    }
    const bad = await block(anna.token, 'niet-een-id');
    expect([bad.status, (await body(bad)).message]).toEqual([400, USER_MESSAGES.invalidUserId]);
    expect(await list(anna.token)).toEqual([]);
  });

  it(`allows at most ${BLOCK_MAX} blocked members at once`, async () => {
    const anna = await member();
    const last = await member();
    // Straight into the store: 500 requests would only test the rate limit.
    const ids = Array.from({ length: BLOCK_MAX }, () => new Types.ObjectId().toString());
    const since = new Date('2026-01-01T00:00:00Z');
    await blocks.insertOne({ _id: anna.id, entries: Object.fromEntries(ids.map((id) => [id, { since, version: 1, active: true }])), blocked: ids, rev: 1 });
    const res = await block(anna.token, last.id);
    expect([res.status, (await body(res)).message]).toEqual([400, BLOCK_MESSAGES.tooMany]);
    expect((await unblock(anna.token, ids[0]!)).status).toBe(204);
    expect((await block(anna.token, last.id)).status).toBe(204);
  });

  it("removes a deleted account's relations both ways", async () => {
    const anna = await member();
    const bram = await member();
    const cor = await member();
    const admin = await member({ roles: ['Beheerder'] });
    await block(anna.token, bram.id);
    await block(bram.token, cor.id);
    await block(anna.token, cor.id);
    expect((await call('DELETE', `/api/admin/delete/${bram.id}`, admin.token)).status).toBe(200);
    expect((await list(anna.token)).map((b: { userId: string }) => b.userId)).toEqual([cor.id]);
    expect(await blocks.findOne({ _id: bram.id })).toBeNull();
    expect((await blocks.findOne({ _id: anna.id }))?.blocked).toEqual([cor.id]);
  });
});
