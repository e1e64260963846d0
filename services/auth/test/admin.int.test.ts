import { randomUUID } from 'node:crypto';
import { adminUserRoutes, eventRegistry, tokenVersionKey, type AdminUser, type Role } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import {
  connectBus,
  connectMongo,
  consume,
  createApp,
  ensureStream,
  startOutboxRelay,
  type Bus,
  type Connection,
  type OutboxRelay,
  type Worker,
} from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertUser, userCollection, userIdOf, type UserCollection } from '../src/accounts/model.ts';
import { adminUserHandlers } from '../src/admin/routes.ts';
import { avatarStore, type AvatarStore } from '../src/avatars/store.ts';
import { claimDeletion, deletionCollection, type DeletionCollection } from '../src/cleanup/deletion.ts';
import { blockCollection } from '../src/blocks/model.ts';
import { refreshCollection } from '../src/accounts/refresh.ts';
import { userStatsCollection } from '../src/users/stats.ts';

const logger = silentLogger();
let db: Connection;
let bus: Bus;
let redis: RedisClientType;
let issuer: TestIssuer;
let users: UserCollection;
let deletions: DeletionCollection;
let avatars: AvatarStore;
let relay: OutboxRelay;
let consumer: Worker;
let server: Awaited<ReturnType<typeof listen>>;
/** auth.user.activated and auth.user.deleted events of this file's users, as JetStream delivered them. */
const events: { type: string; id: string; payload: { id: string } & Record<string, unknown> }[] = [];

const ADMIN_KEYS = ['id', 'firstName', 'lastName', 'email', 'city', 'latitude', 'longitude', 'role', 'isPremium', 'activated', 'createdAt'];

beforeAll(async () => {
  const { mongoUrl, natsUrl, redisUrl } = testStores();
  [db, bus, issuer] = await Promise.all([connectMongo(mongoUrl, `auth-admin-${randomUUID().slice(0, 8)}`), connectBus(natsUrl, 'auth-admin-test'), createTestIssuer()]);
  redis = createClient({ url: redisUrl });
  await redis.connect();
  users = userCollection(db);
  deletions = deletionCollection(db);
  avatars = avatarStore(db);
  await ensureStream(bus, 'auth');
  relay = startOutboxRelay({ bus, db, collections: [users.collectionName, deletions.collectionName], logger, intervalMs: 200 });
  server = await listen(
    createApp({ service: 'auth', logger, verifyToken: issuer.verifyToken, routes: { adminUser: adminUserRoutes }, handlers: adminUserHandlers({ users, deletions, redis, relay, avatars, stats: userStatsCollection(db), refreshTokens: refreshCollection(db), blocks: blockCollection(db) }) }),
  );
  consumer = await consume(bus, {
    durable: `test-admin-${randomUUID().slice(0, 8)}`,
    registry: eventRegistry,
    subjects: ['auth.user.activated', 'auth.user.deleted'],
    db,
    logger,
    handler: async (event) => {
      events.push({ type: event.type, id: event.id, payload: event.payload });
    },
  });
});
afterAll(async () => {
  await server.close();
  await consumer.stop();
  await relay.stop();
  await db.dropDatabase();
  await Promise.all([db.close(), bus.nc.drain(), redis.quit(), issuer.close()]);
});
beforeEach(async () => {
  await users.deleteMany({});
});

let seq = 0;
async function createUser(fields: { roles?: Role[]; activated?: boolean; city?: string; firstName?: string; lastName?: string; subscriptionEndsAt?: Date } = {}) {
  seq++;
  const user = await insertUser(users, {
    firstName: fields.firstName ?? `Voornaam${seq}`,
    lastName: fields.lastName ?? `Achternaam${seq}`,
    email: `lid${seq}-${randomUUID().slice(0, 6)}@voorbeeld.nl`,
    passwordHash: '$argon2id$v=19$m=65536,t=3,p=1$geheim$geheim',
    activated: fields.activated ?? true,
    roles: fields.roles ?? ['Gebruiker'],
    activation: fields.activated === false ? { tokenHash: 'activatie-hash', expiresAt: new Date(Date.now() + 3600_000) } : undefined,
    ...(fields.city && { city: fields.city, latitude: 52.09, longitude: 5.12 }),
    ...(fields.subscriptionEndsAt && { subscriptionEndsAt: fields.subscriptionEndsAt }),
  });
  return { id: user._id.toString(), email: user.email };
}

const tokenFor = async (roles: Role[], sub = randomUUID().replaceAll('-', '').slice(0, 24)) => issuer.sign({ sub, roles });
async function call(method: string, path: string, token?: string) {
  const res = await fetch(`${server.url}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, json: await body(res) };
}
const eventsOf = (userId: string, type: string) => events.filter((e) => e.payload.id === userId && e.type === type);
/** Lets the relay and the consumer catch up, so "no second event" is a real observation. */
const settle = async () => {
  await relay.flush();
  await new Promise((r) => setTimeout(r, 400));
};

describe('admin user routes: access', () => {
  it('refuse guests (401) and members without an admin role (403), and change nothing', async () => {
    const target = await createUser({ activated: false });
    const routes = [
      ['GET', '/api/admin/users'],
      ['POST', `/api/user/activate/${target.id}`],
      ['DELETE', `/api/admin/delete/${target.id}`],
    ] as const;
    for (const [method, path] of routes) {
      expect((await call(method, path)).status, `${method} ${path}`).toBe(401);
      expect((await call(method, path, await issuer.signWithForeignKey({ sub: target.id, roles: ['Beheerder'] }))).status).toBe(401);
      for (const roles of [['Gebruiker'], ['Gebruiker', 'Premium']] as Role[][]) {
        const res = await call(method, path, await tokenFor(roles));
        expect(res.status, `${method} ${path} as ${roles}`).toBe(403);
        expect(res.json).toEqual({ message: 'Je hebt geen toegang tot deze actie.' });
      }
    }
    const after = await users.findOne({ _id: userIdOf(target.id) });
    expect(after?.activated).toBe(false);
  });
});

describe('GET /api/admin/users', () => {
  it('lists users newest first, page by page, with exactly the admin row fields', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createUser({ city: i === 0 ? 'Utrecht' : undefined }));
    const admin = await tokenFor(['Moderator']);
    const first = await call('GET', '/api/admin/users?page=1&pageSize=2', admin);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    const second = await call('GET', '/api/admin/users?page=2&pageSize=2', admin);
    const third = await call('GET', '/api/admin/users?page=3&pageSize=2', admin);
    const ids = [...first.json.users, ...second.json.users, ...third.json.users].map((u: AdminUser) => u.id);
    expect(ids).toEqual(created.map((u) => u.id).reverse());

    const utrecht: AdminUser = third.json.users[0];
    expect(Object.keys(utrecht).sort()).toEqual([...ADMIN_KEYS].sort());
    expect(utrecht).toMatchObject({ id: created[0]!.id, email: created[0]!.email, city: 'Utrecht', latitude: 52.09, longitude: 5.12, role: ['Gebruiker'], isPremium: false, activated: true });
    for (const row of [...first.json.users, ...second.json.users]) expect(ADMIN_KEYS).toEqual(expect.arrayContaining(Object.keys(row)));
    const raw = JSON.stringify([first.json, second.json, third.json]);
    for (const secret of ['argon2', 'passwordHash', 'tokenVersion', 'activation', 'outbox']) expect(raw).not.toContain(secret);
  });

  it('uses 50 per page by default', async () => {
    for (let i = 0; i < 51; i++) await createUser();
    const res = await call('GET', '/api/admin/users', await tokenFor(['Beheerder']));
    expect(res.json.users).toHaveLength(50);
    expect(res.json).toMatchObject({ total: 51, page: 1, pageSize: 50 });
  });

  it('searches name, email and city word by word, and filters on activated', async () => {
    const jan = await createUser({ firstName: 'Jan', lastName: 'de Vries', city: 'Den Haag' });
    const anna = await createUser({ firstName: 'Anna', lastName: 'Jansen', activated: false });
    await createUser({ firstName: 'Piet', lastName: 'Bakker', city: 'Gent' });
    const admin = await tokenFor(['Beheerder']);
    const idsFor = async (query: string) => (await call('GET', `/api/admin/users?${query}`, admin)).json.users.map((u: AdminUser) => u.id);

    expect(new Set(await idsFor('q=jan'))).toEqual(new Set([jan.id, anna.id]));
    expect(await idsFor('q=JAN%20haag')).toEqual([jan.id]);
    expect(await idsFor(`q=${encodeURIComponent(anna.email.slice(0, 8))}`)).toEqual([anna.id]);
    expect(await idsFor('q=.*')).toEqual([]);
    expect(await idsFor('activated=false')).toEqual([anna.id]);
    expect((await idsFor('activated=true')).sort()).not.toContain(anna.id);
    expect(await idsFor('q=jan&activated=true')).toEqual([jan.id]);
  });

  it('marks premium members by role or by a running subscription', async () => {
    const byRole = await createUser({ roles: ['Gebruiker', 'Premium'] });
    const running = await createUser({ subscriptionEndsAt: new Date(Date.now() + 86_400_000) });
    const ended = await createUser({ subscriptionEndsAt: new Date(Date.now() - 86_400_000) });
    const res = await call('GET', '/api/admin/users', await tokenFor(['Beheerder']));
    const premium = Object.fromEntries(res.json.users.map((u: AdminUser) => [u.id, u.isPremium]));
    expect(premium).toEqual({ [byRole.id]: true, [running.id]: true, [ended.id]: false });
  });

  it('answers bad paging, filters and search with 400 and a Dutch message', async () => {
    const admin = await tokenFor(['Beheerder']);
    for (const query of ['page=0', 'page=een', 'pageSize=0', 'pageSize=101', 'activated=misschien', `q=${'x'.repeat(101)}`]) {
      const res = await call('GET', `/api/admin/users?${query}`, admin);
      expect(res.status, query).toBe(400);
      expect(res.json.errors).toHaveLength(1);
      expect(res.json.message).toBe(res.json.errors[0].message);
    }
    const long = await call('GET', `/api/admin/users?q=${'x'.repeat(101)}`, admin);
    expect(long.json.message).toBe('Een zoekterm is hoogstens 100 tekens lang.');
  });
});

describe('POST /api/user/activate/{id}', () => {
  it('activates a user, drops the pending activation link and announces it once through the outbox', async () => {
    const target = await createUser({ activated: false, city: 'Gent' });
    const res = await call('POST', `/api/user/activate/${target.id}`, await tokenFor(['Moderator']));
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('Gebruiker geactiveerd.');
    expect(res.json.user).toMatchObject({ id: target.id, activated: true, email: target.email });
    const stored = await users.findOne({ _id: userIdOf(target.id) });
    expect(stored?.activated).toBe(true);
    expect(stored?.activation).toBeUndefined();

    await expect.poll(() => eventsOf(target.id, 'auth.user.activated').length, { timeout: 10_000 }).toBe(1);
    const [event] = eventsOf(target.id, 'auth.user.activated');
    expect(event!.payload).toMatchObject({ id: target.id, version: 1, activated: true, city: 'Gent' });
    expect(JSON.stringify(event!.payload)).not.toContain(target.email);

    const again = await call('POST', `/api/user/activate/${target.id}`, await tokenFor(['Beheerder']));
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('Deze gebruiker is al geactiveerd.');
    await settle();
    expect(eventsOf(target.id, 'auth.user.activated')).toHaveLength(1);
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    const admin = await tokenFor(['Beheerder']);
    const missing = await call('POST', `/api/user/activate/${'a'.repeat(24)}`, admin);
    expect(missing).toMatchObject({ status: 404, json: { message: 'Gebruiker niet gevonden' } });
    const malformed = await call('POST', '/api/user/activate/123', admin);
    expect(malformed.status).toBe(400);
    expect(malformed.json.message).toBe('Ongeldige gebruikers-id.');
  });
});

describe('DELETE /api/admin/delete/{id}', () => {
  it('deletes the user with their pictures and stats, revokes their tokens and announces auth.user.deleted once', async () => {
    const target = await createUser();
    const picture = await avatars.save(target.id, Buffer.from('RIFF0000WEBPVP8 '));
    await userStatsCollection(db).insertOne({ _id: target.id, totalTrades: 3, ratingSum: 0, totalReviewers: 0, activeListings: 0 });
    const before = Number((await redis.get(tokenVersionKey(target.id))) ?? 0);
    const adminId = randomUUID().replaceAll('-', '').slice(0, 24);
    const res = await call('DELETE', `/api/admin/delete/${target.id}`, await tokenFor(['Beheerder'], adminId));
    expect(res).toMatchObject({ status: 200, json: { message: 'Gebruiker verwijderd.' } });
    expect(await users.findOne({ _id: userIdOf(target.id) })).toBeNull();
    expect(Number(await redis.get(tokenVersionKey(target.id)))).toBeGreaterThan(before);
    expect(await deletions.findOne({ _id: target.id })).toMatchObject({ reason: 'admin', by: adminId });
    expect(await avatars.find(picture.split('/').pop()!)).toBeUndefined();
    expect(await userStatsCollection(db).findOne({ _id: target.id })).toBeNull();

    await expect.poll(() => eventsOf(target.id, 'auth.user.deleted').length, { timeout: 10_000 }).toBe(1);
    // One more than the last version announced (none: the test wrote the user directly).
    expect(eventsOf(target.id, 'auth.user.deleted')[0]!.payload).toEqual({ id: target.id, version: 1 });

    const again = await call('DELETE', `/api/admin/delete/${target.id}`, await tokenFor(['Beheerder']));
    expect(again).toMatchObject({ status: 404, json: { message: 'Gebruiker niet gevonden' } });
    await settle();
    expect(eventsOf(target.id, 'auth.user.deleted')).toHaveLength(1);
  });

  it('deletes and announces once when two admins click at the same moment', async () => {
    const target = await createUser();
    const [a, b] = await Promise.all([
      call('DELETE', `/api/admin/delete/${target.id}`, await tokenFor(['Beheerder'])),
      call('DELETE', `/api/admin/delete/${target.id}`, await tokenFor(['Moderator'])),
    ]);
    // The second either finds the user gone (404) or helps finish the first one's deletion (200).
    expect([a.status, b.status]).toContain(200);
    expect([200, 404]).toEqual(expect.arrayContaining([a.status, b.status]));
    expect(await users.findOne({ _id: userIdOf(target.id) })).toBeNull();
    await expect.poll(() => eventsOf(target.id, 'auth.user.deleted').length, { timeout: 10_000 }).toBe(1);
    await settle();
    expect(eventsOf(target.id, 'auth.user.deleted')).toHaveLength(1);
  });

  it('refuses deleting oneself, and a moderator deleting an admin; a Beheerder may', async () => {
    const moderator = await createUser({ roles: ['Gebruiker', 'Moderator'] });
    const beheerder = await createUser({ roles: ['Beheerder'] });
    const self = await call('DELETE', `/api/admin/delete/${moderator.id}`, await tokenFor(['Moderator'], moderator.id));
    expect(self).toMatchObject({ status: 403, json: { message: 'Je kunt je eigen account niet verwijderen.' } });
    const shouted = await call('DELETE', `/api/admin/delete/${moderator.id.toUpperCase()}`, await tokenFor(['Moderator'], moderator.id));
    expect(shouted.status).toBe(403);
    const up = await call('DELETE', `/api/admin/delete/${beheerder.id}`, await tokenFor(['Moderator'], moderator.id));
    expect(up).toMatchObject({ status: 403, json: { message: 'Alleen een beheerder kan een beheerder of moderator verwijderen.' } });
    expect(await users.countDocuments({ _id: { $in: [moderator.id, beheerder.id].map(userIdOf) } })).toBe(2);
    expect(await redis.get(tokenVersionKey(beheerder.id))).toBeNull();

    const down = await call('DELETE', `/api/admin/delete/${moderator.id}`, await tokenFor(['Beheerder'], beheerder.id));
    expect(down.status).toBe(200);
    expect(await users.findOne({ _id: userIdOf(moderator.id) })).toBeNull();
  });

  it('hides a deletion that began but did not finish, and finishes it when asked again', async () => {
    const target = await createUser();
    const claim = await claimDeletion(users, target.id, { reason: 'inactive' });
    expect(claim).toBeDefined();
    const list = await call('GET', '/api/admin/users', await tokenFor(['Beheerder']));
    expect(list.json.users.map((u: AdminUser) => u.id)).not.toContain(target.id);
    expect((await call('POST', `/api/user/activate/${target.id}`, await tokenFor(['Beheerder']))).status).toBe(404);

    const res = await call('DELETE', `/api/admin/delete/${target.id}`, await tokenFor(['Beheerder']));
    expect(res.status).toBe(200);
    expect(await users.findOne({ _id: userIdOf(target.id) })).toBeNull();
    // The deletion keeps the reason and event of the claim that began it.
    expect(await deletions.findOne({ _id: target.id })).toMatchObject({ reason: 'inactive' });
    await expect.poll(() => eventsOf(target.id, 'auth.user.deleted').map((e) => e.id), { timeout: 10_000 }).toEqual([claim!.eventId]);
  });

  it('answers an unknown id with 404 and a malformed one with 400, deleting nothing', async () => {
    const bystander = await createUser();
    const admin = await tokenFor(['Beheerder']);
    expect((await call('DELETE', `/api/admin/delete/${'b'.repeat(24)}`, admin)).status).toBe(404);
    const malformed = await call('DELETE', '/api/admin/delete/not-an-id', admin);
    expect(malformed).toMatchObject({ status: 400, json: { message: 'Ongeldige gebruikers-id.' } });
    expect(await users.countDocuments({ _id: userIdOf(bystander.id) })).toBe(1);
  });
});
