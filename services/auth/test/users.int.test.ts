import { randomUUID } from 'node:crypto';
import { eventRegistry, userRoutes, type UserEvent } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import {
  connectBus,
  connectMongo,
  consume,
  createApp,
  ensureIndexes,
  ensureStream,
  MESSAGES,
  startOutboxRelay,
  type Bus,
  type Connection,
  type OutboxRelay,
  type Worker,
} from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, USER_INDEXES, userCollection, userIdOf, type UserCollection, type UserDoc } from '../src/accounts/model.ts';
import { avatarPlain } from '../src/avatars/routes.ts';
import { avatarStore } from '../src/avatars/store.ts';
import { createPlaceSearch } from '../src/geo/search.ts';
import { userHandlers } from '../src/users/routes.ts';
import { userStatsCollection, type UserStatsCollection } from '../src/users/stats.ts';

const logger = silentLogger();
const MB = 1024 * 1024;
const WRONG_TYPE = 'Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.';
const TOO_LARGE = 'De profielfoto mag niet groter zijn dan 5MB.';

let db: Connection;
let bus: Bus;
let issuer: TestIssuer;
let users: UserCollection;
let stats: UserStatsCollection;
let relay: OutboxRelay;
let events: Worker;
const published: UserEvent[] = [];
let server: Awaited<ReturnType<typeof listen>>;
// Profile saves carry a declared rate limit, counted in Redis.
let redis: RedisClientType;

beforeAll(async () => {
  const { mongoUrl, natsUrl, redisUrl } = testStores();
  redis = createClient({ url: redisUrl });
  await redis.connect();
  [db, bus, issuer] = await Promise.all([
    connectMongo(mongoUrl, `auth-users-${randomUUID().slice(0, 8)}`),
    connectBus(natsUrl, 'auth-users-test'),
    createTestIssuer(),
  ]);
  users = userCollection(db);
  await ensureIndexes(users, USER_INDEXES);
  stats = userStatsCollection(db);
  const avatars = avatarStore(db);
  await ensureStream(bus, 'auth');
  relay = startOutboxRelay({ bus, db, collections: [users.collectionName], logger, intervalMs: 200 });
  const deps = { users, stats, avatars, places: createPlaceSearch({ logger }), announce: relay.kick, logger };
  const app = createApp({
    service: 'auth',
    logger,
    redis,
    verifyToken: issuer.verifyToken,
    routes: { user: userRoutes },
    handlers: userHandlers(deps),
    plain: (router) => avatarPlain(router, avatars),
  });
  server = await listen(app);
  // Other files publish auth events too: only this file's members are looked at.
  events = await consume(bus, {
    durable: `test-users-${randomUUID().slice(0, 8)}`,
    registry: eventRegistry,
    subjects: ['auth.user.updated'],
    db,
    logger,
    handler: async (event) => {
      published.push(event.payload);
    },
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
async function member(fields: Partial<UserDoc> = {}) {
  counter += 1;
  const doc = await insertUser(users, {
    firstName: 'Sanne',
    lastName: 'de Vries',
    email: `sanne${counter}-${randomUUID().slice(0, 6)}@voorbeeld.nl`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    activated: true,
    city: 'Utrecht',
    latitude: 52.09,
    longitude: 5.12,
    ...fields,
  });
  const id = doc._id.toString();
  return { id, token: await issuer.sign({ sub: id }) };
}

const stored = (id: string) => users.findOne({ _id: userIdOf(id) });
const avatarFiles = (userId: string) => db.collection('avatars.files').countDocuments({ 'metadata.userId': userId });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (path: string, token?: string) => fetch(server.url + path, { headers: token ? auth(token) : {} });

type Part = string | { data: Buffer; name: string; type?: string };
function form(fields: Record<string, Part>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, new Blob([new Uint8Array(v.data)], { type: v.type ?? 'application/octet-stream' }), v.name);
  }
  return f;
}
const update = (token: string | undefined, fields: Record<string, Part> | FormData) =>
  fetch(`${server.url}/api/user/update`, { method: 'PUT', headers: token ? auth(token) : {}, body: fields instanceof FormData ? fields : form(fields) });
const names = { firstName: 'Sanne', lastName: 'de Vries' };
const image = (format: 'png' | 'jpeg' | 'webp' | 'gif', width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: '#2a7' } }).toFormat(format).toBuffer();

/** A rejected request must leave the record and the stored pictures exactly as they were. */
async function expectUnchanged(id: string, request: () => Promise<Response>, status: number, message?: string) {
  await relay.flush(); // events of earlier saves leave the outbox on their own time
  const [before, files] = [await stored(id), await avatarFiles(id)];
  const res = await request();
  expect(res.status).toBe(status);
  const answer = await body(res);
  if (message) expect(answer.message).toBe(message);
  expect(JSON.stringify(answer)).not.toMatch(/stack|at \/|node_modules/);
  expect(await stored(id)).toEqual(before);
  expect(await avatarFiles(id)).toBe(files);
  return answer;
}

describe('GET /api/user/my', () => {
  it('answers the own full record and nothing of passwords, tokens or suspensions', async () => {
    const { id, token } = await member({ suspension: { reason: 'warnings', endsAt: new Date(Date.now() + 3600_000) } });
    const res = await get('/api/user/my', token);
    expect(res.status).toBe(200);
    const me = await body(res);
    expect(me).toEqual({
      id,
      firstName: 'Sanne',
      lastName: 'de Vries',
      email: expect.stringMatching(/@voorbeeld\.nl$/),
      city: 'Utrecht',
      latitude: 52.09,
      longitude: 5.12,
      profilePicture: '/uploads/avatars/default_avatar.jpg',
      activated: true,
      role: ['Gebruiker'],
    });
  });

  it('answers 401 without a token, with a bad one, or for an account that is gone', async () => {
    expect((await get('/api/user/my')).status).toBe(401);
    expect((await get('/api/user/my', 'geen-token')).status).toBe(401);
    const gone = await issuer.sign({ sub: new Types.ObjectId().toString() });
    const res = await get('/api/user/my', gone);
    expect(res.status).toBe(401);
    expect(await body(res)).toEqual({ message: 'Je bent niet ingelogd of je sessie is verlopen.' });
  });
});

describe('PUT /api/user/update', () => {
  it('saves trimmed values with the coordinates sent and announces auth.user.updated without the email', async () => {
    const { id, token } = await member();
    const ok = await update(token, { firstName: '  Eva ', lastName: ' Jansen  ', city: '  Leiden ', latitude: '52.16', longitude: '4.49' });
    expect(ok.status).toBe(200);
    const answer = await body(ok);
    expect(answer.message).toBe('Je profiel is opgeslagen.');
    expect(answer.user).toMatchObject({ id, firstName: 'Eva', lastName: 'Jansen', city: 'Leiden', latitude: 52.16, longitude: 4.49 });
    expect(await stored(id)).toMatchObject({ firstName: 'Eva', lastName: 'Jansen', city: 'Leiden', latitude: 52.16, longitude: 4.49 });

    await expect.poll(() => published.filter((e) => e.id === id).length, { timeout: 10_000 }).toBe(1);
    const event = published.find((e) => e.id === id)!;
    expect(event).toEqual({
      id,
      version: 1,
      firstName: 'Eva',
      lastName: 'Jansen',
      profilePicture: '/uploads/avatars/default_avatar.jpg',
      city: 'Leiden',
      latitude: 52.16,
      longitude: 4.49,
      roles: ['Gebruiker'],
      activated: true,
    });
    // The outbox entry is gone once published.
    await expect.poll(async () => Object.keys((await users.findOne<{ outbox?: object }>({ _id: new Types.ObjectId(id) }))?.outbox ?? {}).length).toBe(0);
  });

  it('accepts the own email unchanged, in any case, but cannot change it', async () => {
    const { id, token } = await member();
    const { email } = (await stored(id))!;
    expect((await update(token, { ...names, email: ` ${email.toUpperCase()} ` })).status).toBe(200);
    await expectUnchanged(id, () => update(token, { ...names, email: 'ander@voorbeeld.nl' }), 400, 'Je e-mailadres kun je niet wijzigen via je profiel.');
  });

  it('looks a city up in the place list when no coordinates come with it', async () => {
    const { id, token } = await member();
    const res = await update(token, { ...names, city: 'den haag' });
    expect(res.status).toBe(200);
    const saved = (await stored(id))!;
    expect(saved.city).toBe('den haag');
    expect(saved.latitude).toBeCloseTo(52.08, 1);
    expect(saved.longitude).toBeCloseTo(4.3, 1);
    await expectUnchanged(id, () => update(token, { ...names, city: 'Xqzplaatsnietbestaand' }), 400, 'Woonplaats niet gevonden.');
  });

  it('clears city and coordinates when the city is left empty', async () => {
    const { id, token } = await member();
    const res = await update(token, { ...names, city: '  ', latitude: '', longitude: '' });
    expect(res.status).toBe(200);
    const answer = await body(res);
    expect(answer.user).not.toHaveProperty('city');
    expect(answer.user).not.toHaveProperty('latitude');
    const saved = (await stored(id))!;
    expect(saved).not.toHaveProperty('city');
    expect(saved).not.toHaveProperty('latitude');
    expect(saved).not.toHaveProperty('longitude');
  });

  it("gives each of the spec's messages and changes nothing", async () => {
    const { id, token } = await member();
    const cases: [Record<string, Part>, string][] = [
      [{ firstName: '   ', lastName: 'Jansen' }, 'Voornaam is verplicht.'],
      [{ lastName: 'Jansen' }, 'Voornaam is verplicht.'],
      [{ firstName: 'Eva', lastName: '' }, 'Achternaam is verplicht.'],
      [{ firstName: 'Eva' }, 'Achternaam is verplicht.'],
      [{ ...names, email: '   ' }, 'E-mailadres is verplicht.'],
      [{ ...names, email: 'sanne@voorbeeld' }, 'Ongeldig e-mailadres.'],
      [{ ...names, email: 'sanne @voorbeeld.nl' }, 'Ongeldig e-mailadres.'],
      [{ ...names, city: 'Leiden', latitude: '52.1' }, 'Geef zowel breedte- als lengtegraad op, of geen van beide.'],
      [{ ...names, city: 'Leiden', latitude: 'noord', longitude: '4.4' }, 'Breedtegraad moet een getal tussen -90 en 90 zijn.'],
      [{ ...names, city: 'Leiden', latitude: '52.1', longitude: '181' }, 'Lengtegraad moet een getal tussen -180 en 180 zijn.'],
      [{ ...names, latitude: '52.1', longitude: '4.4' }, 'Coördinaten horen bij een woonplaats: vul ook de woonplaats in.'],
      [{ firstName: 'E'.repeat(51), lastName: 'Jansen' }, 'Naam mag hoogstens 50 tekens lang zijn.'],
    ];
    for (const [fields, message] of cases) {
      const answer = await expectUnchanged(id, () => update(token, fields), 400, message);
      expect(answer.errors).toHaveLength(1);
    }
    const both = await expectUnchanged(id, () => update(token, { firstName: '', lastName: '' }), 400, 'De invoer is ongeldig.');
    expect(both.errors.map((e: { message: string }) => e.message)).toEqual(['Voornaam is verplicht.', 'Achternaam is verplicht.']);
  });

  it('refuses malformed and non-form bodies with 400 and no token with 401', async () => {
    const { id, token } = await member();
    await expectUnchanged(
      id,
      () => fetch(`${server.url}/api/user/update`, { method: 'PUT', headers: { ...auth(token), 'content-type': 'application/json' }, body: JSON.stringify(names) }),
      400,
      'De invoer is geen geldig formulier.',
    );
    await expectUnchanged(
      id,
      () =>
        fetch(`${server.url}/api/user/update`, {
          method: 'PUT',
          headers: { ...auth(token), 'content-type': 'multipart/form-data; boundary=grens' },
          body: '--grens\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nEva',
        }),
      400,
      'De invoer is geen geldig formulier.',
    );
    await expectUnchanged(id, () => update(undefined, { firstName: 'Eva', lastName: 'Jansen' }), 401);
    await expectUnchanged(id, () => update(token, { ...names, avatar: { data: Buffer.from('x'), name: 'x.png' } }), 400, 'De invoer is ongeldig.');
  });

  it('changes only the member of the token, whatever ids the form names', async () => {
    const alice = await member({ firstName: 'Alice' });
    const bob = await member({ firstName: 'Bob' });
    const bobBefore = await stored(bob.id);
    const res = await update(alice.token, { firstName: 'Gewijzigd', lastName: 'Naam', id: bob.id, userId: bob.id, _id: bob.id });
    expect(res.status).toBe(200);
    expect((await body(res)).user.id).toBe(alice.id);
    expect((await stored(alice.id))!.firstName).toBe('Gewijzigd');
    expect(await stored(bob.id)).toEqual(bobBefore);
  });
});

describe('rate limit declared on the profile route', () => {
  it('takes 30 saves per member in 10 minutes, then 429 with Retry-After; another member is unaffected', async () => {
    const { token } = await member();
    const other = await member();
    for (let i = 0; i < 30; i += 1) expect((await update(token, { ...names, lastName: `de Vries ${i}` })).status, `save ${i + 1}`).toBe(200);
    const refused = await update(token, names);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await body(refused)).toEqual({ message: MESSAGES.tooManyRequests });
    expect((await update(other.token, names)).status).toBe(200);
  });
});

describe('profile picture', () => {
  it('stores an uploaded picture re-encoded, serves it, and removes the old one when replaced', async () => {
    const { id, token } = await member();
    const first = await update(token, { ...names, profilePicture: { data: await image('png', 1600, 1200), name: 'ik.png', type: 'image/png' } });
    expect(first.status).toBe(200);
    const firstPath: string = (await body(first)).user.profilePicture;
    expect(firstPath).toMatch(/^\/uploads\/avatars\/[0-9a-f]{24}\.webp$/);
    expect((await stored(id))!.profilePicture).toBe(firstPath);

    const served = await fetch(server.url + firstPath);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 512, height: 384 });

    // Content decides, not the name or declared type: a WEBP called .jpg is fine.
    const second = await update(token, { ...names, profilePicture: { data: await image('webp'), name: 'vakantie.jpg', type: 'image/jpeg' } });
    expect(second.status).toBe(200);
    const secondPath: string = (await body(second)).user.profilePicture;
    expect(secondPath).not.toBe(firstPath);
    expect((await fetch(server.url + firstPath)).status).toBe(404);
    expect((await fetch(server.url + secondPath)).status).toBe(200);
    expect(await avatarFiles(id)).toBe(1);

    // A save without a picture keeps the current one (an empty file input is no picture).
    const third = await update(token, { ...names, profilePicture: { data: Buffer.alloc(0), name: '' } });
    expect(third.status).toBe(200);
    expect((await body(third)).user.profilePicture).toBe(secondPath);
    await expect.poll(() => published.filter((e) => e.id === id).map((e) => e.profilePicture), { timeout: 10_000 }).toEqual([firstPath, secondPath, secondPath]);
    expect(published.filter((e) => e.id === id).map((e) => e.version)).toEqual([1, 2, 3]);
  });

  it('refuses what is not a JPG, PNG or WEBP by content, whatever its name or type, and stores nothing', async () => {
    const { id, token } = await member();
    const fakes = [
      { data: Buffer.from('Dit is een tekstbestand, hernoemd.'), name: 'foto.jpg', type: 'image/jpeg' },
      { data: await image('gif', 40, 40), name: 'foto.png', type: 'image/png' },
      { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), name: 'foto.webp', type: 'image/webp' },
      { data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]), name: 'kapot.jpg', type: 'image/jpeg' },
    ];
    for (const file of fakes) {
      const answer = await expectUnchanged(id, () => update(token, { ...names, profilePicture: file }), 400, WRONG_TYPE);
      expect(answer.errors).toEqual([{ path: 'files.profilePicture', message: WRONG_TYPE }]);
    }
  });

  it('refuses a picture over 5 MB, just over or far over, and stores nothing', async () => {
    const { id, token } = await member();
    const jpeg = await image('jpeg', 64, 64);
    const justOver = Buffer.concat([jpeg, Buffer.alloc(5 * MB + 1 - jpeg.length)]);
    expect(justOver.length).toBe(5 * MB + 1);
    await expectUnchanged(id, () => update(token, { ...names, profilePicture: { data: justOver, name: 'groot.jpg', type: 'image/jpeg' } }), 400, TOO_LARGE);
    const farOver = Buffer.concat([jpeg, Buffer.alloc(12 * MB)]);
    await expectUnchanged(id, () => update(token, { ...names, profilePicture: { data: farOver, name: 'enorm.jpg', type: 'image/jpeg' } }), 400, TOO_LARGE);
    // Exactly 5 MB is allowed (the bytes after the JPG's end marker are dropped by the re-encoding).
    const exactly = Buffer.concat([jpeg, Buffer.alloc(5 * MB - jpeg.length)]);
    const res = await update(token, { ...names, profilePicture: { data: exactly, name: 'precies.jpg', type: 'image/jpeg' } });
    expect(res.status).toBe(200);
    expect(await avatarFiles(id)).toBe(1);
  });

  it('keeps exactly the stored picture of the last save when saves race', async () => {
    const { id, token } = await member();
    const pictures = await Promise.all([1, 2, 3, 4].map((i) => image('png', 100 * i, 80)));
    const answers = await Promise.all(pictures.map((data) => update(token, { ...names, profilePicture: { data, name: 'ik.png' } })));
    // Each save either won (200) or gave up after repeated interference (409); none half-done.
    expect(answers.map((r) => r.status).every((s) => s === 200 || s === 409)).toBe(true);
    expect(answers.some((r) => r.status === 200)).toBe(true);
    const current = (await stored(id))!.profilePicture!;
    expect((await fetch(server.url + current)).status).toBe(200);
    expect(await avatarFiles(id)).toBe(1);
  });

  it('refuses a second picture in the same form', async () => {
    const { id, token } = await member();
    const f = form(names);
    f.append('profilePicture', new Blob([new Uint8Array(await image('png', 20, 20))]), 'a.png');
    f.append('profilePicture', new Blob([new Uint8Array(await image('png', 20, 20))]), 'b.png');
    await expectUnchanged(id, () => update(token, f), 400, 'Er zijn te veel bestanden meegestuurd.');
  });
});

describe('GET /api/user/status', () => {
  it('reports suspensions by reason and date (the seed fields), and an expired one as none', async () => {
    const until = new Date(Date.now() + 7 * 24 * 3600_000);
    const cases: [Partial<UserDoc>, object][] = [
      [{}, { blocked: false, reason: null, unblockDate: null }],
      [{ suspension: { reason: 'ban', endsAt: until } }, { blocked: true, reason: 'ban', unblockDate: until.toISOString() }],
      [{ suspension: { reason: 'ban' } }, { blocked: true, reason: 'ban', unblockDate: null }],
      [{ suspension: { reason: 'warnings', endsAt: until } }, { blocked: true, reason: 'warnings', unblockDate: until.toISOString() }],
      [{ suspension: { reason: 'ban', endsAt: new Date(Date.now() - 1000) } }, { blocked: false, reason: null, unblockDate: null }],
      // As stored before the rename.
      [{ block: { reason: 'warnings', unblockDate: until } }, { blocked: true, reason: 'warnings', unblockDate: until.toISOString() }],
    ];
    for (const [fields, expected] of cases) {
      const { token } = await member(fields);
      const res = await get('/api/user/status', token);
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual(expected);
    }
    expect((await get('/api/user/status')).status).toBe(401);
  });
});

describe('public profile and stats', () => {
  it('shows public fields only, without a token: no email, coordinates, suspension or history', async () => {
    const { id } = await member({
      firstName: 'Piet',
      roles: ['Gebruiker', 'Moderator'],
      suspension: { reason: 'warnings', endsAt: new Date(Date.now() + 3600_000) },
    });
    const res = await get(`/api/user/public/${id}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      id,
      firstName: 'Piet',
      lastName: 'de Vries',
      profilePicture: '/uploads/avatars/default_avatar.jpg',
      city: 'Utrecht',
      role: ['Gebruiker', 'Moderator'],
    });
    expect(text).not.toMatch(/voorbeeld\.nl|52\.09|5\.12|warnings|passwordHash|argon2/);
  });

  it('shows Premium while a subscription runs, and not after it ended', async () => {
    const running = await member({ subscriptionEndsAt: new Date(Date.now() + 3600_000) });
    expect((await body(await get(`/api/user/public/${running.id}`))).role).toEqual(['Gebruiker', 'Premium']);
    const ended = await member({ subscriptionEndsAt: new Date(Date.now() - 3600_000) });
    expect((await body(await get(`/api/user/public/${ended.id}`))).role).toEqual(['Gebruiker']);
  });

  it('answers 404 for unknown, not yet activated and departing members and 400 for a malformed id', async () => {
    const pending = await member({ activated: false });
    const departing = await member();
    await users.updateOne({ _id: new Types.ObjectId(departing.id) }, { $set: { deletion: { eventId: randomUUID(), at: new Date(), reason: 'admin' } } });
    for (const id of [new Types.ObjectId().toString(), pending.id, departing.id]) {
      for (const path of [`/api/user/public/${id}`, `/api/user/public/stats/${id}`]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect(await body(res)).toEqual({ message: 'Gebruiker niet gevonden' });
      }
    }
    for (const path of ['/api/user/public/niet-een-id', '/api/user/public/stats/123', `/api/user/public/stats/${'z'.repeat(24)}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect((await body(res)).message).toBe('Ongeldige gebruikers-id.');
    }
    // A path that is not valid percent-encoding is refused before routing (the kit's path check).
    for (const path of ['/api/user/public/%E0%A4%A', '/api/user/public/stats/%zz', '/uploads/avatars/%zz.webp']) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(await body(res)).toEqual({ message: 'Ongeldig pad.' });
    }
  });

  it('answers 0s before any event fed the projection, and the projection as it stands after', async () => {
    const fresh = await member();
    const res = await get(`/api/user/public/stats/${fresh.id}`);
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ totalTrades: 0, averageRating: 0, totalReviewers: 0, activeListings: 0 });

    const traded = await member();
    await stats.insertOne({ _id: traded.id, totalTrades: 4, ratingSum: 13, totalReviewers: 3, activeListings: 2 });
    expect(await body(await get(`/api/user/public/stats/${traded.id}`))).toEqual({ totalTrades: 4, averageRating: 4.33, totalReviewers: 3, activeListings: 2 });
    // The id in capitals names the same member, so the same figures (not a projection's missing 0s).
    expect(await body(await get(`/api/user/public/stats/${traded.id.toUpperCase()}`))).toEqual({ totalTrades: 4, averageRating: 4.33, totalReviewers: 3, activeListings: 2 });
  });
});

describe('OpenAPI', () => {
  it('documents the profile form as multipart with the picture as a binary field', async () => {
    const doc = await body(await get('/openapi.json'));
    const [fields, files] = doc.paths['/api/user/update'].put.requestBody.content['multipart/form-data'].schema.allOf;
    // Named schemas are hoisted into components.schemas and referenced from the route.
    expect(fields.$ref).toMatch(/^#\/components\/schemas\/UpdateProfileForm/);
    expect(doc.components.schemas[fields.$ref.split('/').pop()].required).toEqual(['firstName', 'lastName']);
    expect(files.properties).toEqual({ profilePicture: { type: 'string', format: 'binary' } });
    expect(doc.paths['/api/user/public/{id}'].get.security).toBeUndefined();
    expect(doc.paths['/api/user/my'].get.security).toEqual([{ bearer: [] }]);
  });
});
