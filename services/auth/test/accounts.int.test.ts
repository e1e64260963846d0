import { createHash, createHmac, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { AUTH_MESSAGES, DEFAULT_AVATAR, eventRegistry, tokenVersionKey } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { consume, createTokenVerifier, MESSAGES } from '@ruilplein/service-kit';
import { body, silentLogger } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCollection, userIdOf, type UserCollection } from '../src/accounts/model.ts';
import { DEMO_ACCOUNTS, DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '../src/seed/seed.ts';
import { authStores, GOOD_PASSWORD, linkTokenFromMail, mailsTo, post, randomIp, signUp, startAuth, uniqueEmail, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
let users: UserCollection;
let url: string;

beforeAll(async () => {
  stores = await authStores();
  auth = await startAuth(stores);
  users = userCollection(stores.db);
  url = auth.url;
});
afterAll(async () => {
  await auth.stop();
  await stores.close();
});

const register = (fields: Record<string, unknown>, ip = randomIp()) => post(url, '/api/auth/register', fields, { 'x-forwarded-for': ip });
const login = (email: string, password: string, ip = randomIp()) => post(url, '/api/auth/login', { email, password }, { 'x-forwarded-for': ip });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/**
 * A login from a given loopback address, without X-Forwarded-For: two clients told apart by the
 * connection itself (all of 127/8 reaches the server), whatever proxies the service trusts.
 */
const loginFrom = (from: string, email: string, password: string, base = url) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: { message?: string } }>((resolve, reject) => {
    const req = request(`${base}/api/auth/login`, { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ email, password }));
  });
const verify = (token: string) => fetch(`${url}/api/auth/verify`, { headers: bearer(token) });
const rawPost = (path: string, payload: string, contentType: string, ip = randomIp()) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': contentType, 'x-forwarded-for': ip }, body: payload });
const errorMessages = async (res: Response) => ((await body(res)).errors as { message: string }[]).map((e) => e.message);
const snapshot = async (email: string) => users.findOne({ email: email.toLowerCase() }, { projection: { outbox: 0 } });

describe('registration', () => {
  it('stores the member with an argon2id hash and a hashed activation token, and mails a Dutch activation link', async () => {
    const email = uniqueEmail('Nieuw');
    const res = await register({ firstName: '  Sanne ', lastName: 'Jansen', email: `  ${email} `, password: GOOD_PASSWORD, city: 'Utrecht', latitude: 52.09, longitude: 5.12 });
    expect(res.status).toBe(201);
    expect(await body(res)).toEqual({ message: AUTH_MESSAGES.registered });

    const user = await snapshot(email);
    expect(user).toMatchObject({ firstName: 'Sanne', lastName: 'Jansen', email: email.toLowerCase(), city: 'Utrecht', latitude: 52.09, longitude: 5.12, activated: false, roles: ['Gebruiker'] });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const token = await linkTokenFromMail(url, email, 'verify-email');
    expect(user!.activation!.tokenHash).not.toContain(token);
    expect(user!.activation!.expiresAt.getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);

    const [mail] = await mailsTo(url, email);
    expect(mail!.subject).toBe('Activeer je Ruilplein-account');
    expect(mail!.text).toContain('Hoi Sanne,');
    expect(mail!.html).toContain(`href="http://ruilplein.test/verify-email?token=${token}"`);
  });

  it('rejects each rule of the spec with its Dutch message and stores nothing', async () => {
    const email = uniqueEmail();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ lastName: 'J', email, password: GOOD_PASSWORD }, [AUTH_MESSAGES.firstNameRequired]],
      [{ firstName: '   ', lastName: 'J', email, password: GOOD_PASSWORD }, [AUTH_MESSAGES.firstNameRequired]],
      [{ firstName: 'S', lastName: '', email, password: GOOD_PASSWORD }, [AUTH_MESSAGES.lastNameRequired]],
      [{ firstName: 'S', lastName: 'J', email: 'sanne@voorbeeld', password: GOOD_PASSWORD }, [AUTH_MESSAGES.invalidEmail]],
      [{ firstName: 'S', lastName: 'J', email: 'san ne@voorbeeld.nl', password: GOOD_PASSWORD }, [AUTH_MESSAGES.invalidEmail]],
      [{ firstName: 'S', lastName: 'J', email, password: 'abc' }, [AUTH_MESSAGES.passwordTooShort, AUTH_MESSAGES.passwordNeedsUppercase, AUTH_MESSAGES.passwordNeedsDigit]],
      [{ firstName: 'S', lastName: 'J', email, password: 'geheim123' }, [AUTH_MESSAGES.passwordNeedsUppercase]],
      [{ firstName: 'S', lastName: 'J', email, password: 'Geheimpje' }, [AUTH_MESSAGES.passwordNeedsDigit]],
      [{ firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD, latitude: 52 }, [AUTH_MESSAGES.coordinatesIncomplete]],
    ];
    for (const [fields, messages] of cases) {
      const res = await register(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(await errorMessages(res)).toEqual(messages);
    }
    const malformed = await rawPost('/api/auth/register', '{"firstName": "S",', 'application/json');
    expect(malformed.status).toBe(400);
    expect(await body(malformed)).toEqual({ message: MESSAGES.invalidJson });
    expect(await users.countDocuments({ email: email.toLowerCase() })).toBe(0);
    expect(await mailsTo(url, email)).toEqual([]);
  });

  it('answers a taken address (in any case) with 409 and nothing more, and leaves the account alone', async () => {
    const { email } = await signUp(url);
    const before = await snapshot(email);
    const res = await register({ firstName: 'Ander', lastName: 'Iemand', email: email.toUpperCase(), password: 'Anders456' });
    expect(res.status).toBe(409);
    expect(await body(res)).toEqual({ message: AUTH_MESSAGES.emailTaken });
    expect(await snapshot(email)).toEqual(before);
  });

  it('is rate-limited per client address', async () => {
    const ip = randomIp();
    for (let i = 0; i < 20; i++) expect((await register({ firstName: 'S', lastName: 'J', email: uniqueEmail(), password: GOOD_PASSWORD }, ip)).status).toBe(201);
    const email = uniqueEmail();
    const limited = await register({ firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await body(limited)).message).toMatch(/^Te veel pogingen\. Probeer het over \d+ minuten opnieuw\.$/);
    expect(await users.countDocuments({ email: email.toLowerCase() })).toBe(0);
  });
});

describe('activation', () => {
  it('activates once with the mailed token (path in any case), then the link is spent', async () => {
    const email = uniqueEmail();
    await register({ firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD });
    const token = await linkTokenFromMail(url, email, 'verify-email');
    const ok = await fetch(`${url}/api/Auth/activate?token=${token}`);
    expect(ok.status).toBe(200);
    expect(await body(ok)).toEqual({ message: AUTH_MESSAGES.activated });
    expect(await snapshot(email)).toMatchObject({ activated: true });
    expect((await snapshot(email))!.activation).toBeUndefined();

    const again = await fetch(`${url}/api/auth/activate?token=${token}`);
    expect(again.status).toBe(400);
    expect(await body(again)).toEqual({ message: AUTH_MESSAGES.activationFailed });
  });

  it('refuses a missing, unknown or expired token', async () => {
    const missing = await fetch(`${url}/api/auth/activate`);
    expect(missing.status).toBe(400);
    // Spec 1 §8's text for a link without its token.
    expect(await body(missing)).toMatchObject({ message: 'Geen e-mailadres opgegeven in de link.' });
    const unknown = await fetch(`${url}/api/auth/activate?token=bestaat-niet`);
    expect(await body(unknown)).toEqual({ message: AUTH_MESSAGES.activationFailed });
    expect((await fetch(`${url}/api/auth/activate?token[$ne]=x`)).status).toBe(400);

    const email = uniqueEmail();
    await register({ firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD });
    const token = await linkTokenFromMail(url, email, 'verify-email');
    await users.updateOne({ email: email.toLowerCase() }, { $set: { 'activation.expiresAt': new Date(Date.now() - 1000) } });
    expect((await fetch(`${url}/api/auth/activate?token=${token}`)).status).toBe(400);
    expect(await snapshot(email)).toMatchObject({ activated: false });
  });
});

describe('resend activation', () => {
  it('takes the bare address as a JSON string or plain text, mails a new link that replaces the old one', async () => {
    const email = uniqueEmail();
    await register({ firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD });
    const first = await linkTokenFromMail(url, email, 'verify-email');

    const res = await rawPost('/api/auth/resend-activation', JSON.stringify(email), 'application/json');
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ message: AUTH_MESSAGES.resendSent });
    const second = await linkTokenFromMail(url, email, 'verify-email', 2);
    expect(second).not.toBe(first);
    expect((await fetch(`${url}/api/auth/activate?token=${first}`)).status).toBe(400);

    expect((await rawPost('/api/auth/resend-activation', email, 'text/plain')).status).toBe(200);
    const third = await linkTokenFromMail(url, email, 'verify-email', 3);
    expect((await fetch(`${url}/api/auth/activate?token=${third}`)).status).toBe(200);
  });

  it('answers the same for an unknown or an activated address and mails neither', async () => {
    const { email: activated } = await signUp(url);
    const unknown = uniqueEmail('onbekend');
    const answers = await Promise.all([activated, unknown].map(async (e) => body(await rawPost('/api/auth/resend-activation', JSON.stringify(e), 'application/json'))));
    expect(answers).toEqual([{ message: AUTH_MESSAGES.resendSent }, { message: AUTH_MESSAGES.resendSent }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(url, activated)).toHaveLength(1);
    expect(await mailsTo(url, unknown)).toEqual([]);
  });

  it('refuses a malformed address and limits mails per address, known or not', async () => {
    const bad = await rawPost('/api/auth/resend-activation', '"geen-adres"', 'application/json');
    expect(bad.status).toBe(400);
    expect(await errorMessages(bad)).toEqual([AUTH_MESSAGES.invalidEmail]);
    expect(await errorMessages(await rawPost('/api/auth/resend-activation', '', 'application/json'))).toEqual([AUTH_MESSAGES.emailRequired]);

    for (const email of [uniqueEmail('onbekend')]) {
      for (let i = 0; i < 3; i++) expect((await rawPost('/api/auth/resend-activation', JSON.stringify(email), 'application/json')).status).toBe(200);
      const limited = await rawPost('/api/auth/resend-activation', JSON.stringify(email), 'application/json');
      expect(limited.status).toBe(429);
    }
    const tooLong = await rawPost('/api/auth/resend-activation', `"${'a'.repeat(2000)}@x.nl"`, 'application/json');
    expect(tooLong.status).toBe(400);
    expect(await errorMessages(tooLong)).toEqual([AUTH_MESSAGES.invalidEmail]);
  });
});

describe('login', () => {
  it('gives a token the JWKS verifies and the session user, without private fields', async () => {
    const { email, id } = await signUp(url);
    const res = await login(email.toUpperCase(), GOOD_PASSWORD);
    expect(res.status).toBe(200);
    const answer = await body(res);
    expect(answer.user).toEqual({ id, role: ['Gebruiker'], firstName: 'Sanne', profilePicture: DEFAULT_AVATAR, activated: true });
    expect(JSON.stringify(answer)).not.toMatch(/email|passwordHash|latitude|tokenVersion/);

    // What the gateway and every service do with AUTH_JWKS_URL.
    const principal = await createTokenVerifier(`${url}/.well-known/jwks.json`)(answer.token);
    expect(principal).toEqual({ userId: id, roles: ['Gebruiker'], tokenVersion: expect.any(Number) });
    const jwks = await body(await fetch(`${url}/.well-known/jwks.json`));
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: expect.any(String) });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('says 409 with activationAvailable only to the right password of an account not yet activated', async () => {
    const email = uniqueEmail();
    await register({ firstName: 'S', lastName: 'J', email, password: GOOD_PASSWORD });
    const right = await login(email, GOOD_PASSWORD);
    expect(right.status).toBe(409);
    expect(await body(right)).toEqual({ message: AUTH_MESSAGES.notActivated, activationAvailable: true });
    const wrong = await login(email, 'Fout1234');
    expect(wrong.status).toBe(401);
    expect(await body(wrong)).toEqual({ message: AUTH_MESSAGES.wrongCredentials });
  });

  it('answers a wrong password and an unknown address alike, and refuses malformed input', async () => {
    const { email } = await signUp(url);
    const wrong = await login(email, 'Fout1234');
    const unknown = await login(uniqueEmail(), GOOD_PASSWORD);
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await body(wrong)).toEqual(await body(unknown));
    const empty = await post(url, '/api/auth/login', { email: '', password: '' });
    expect(empty.status).toBe(400);
    expect(await errorMessages(empty)).toEqual([AUTH_MESSAGES.emailRequired, AUTH_MESSAGES.passwordRequired]);
    expect((await post(url, '/api/auth/login', { email: { $ne: '' }, password: GOOD_PASSWORD })).status).toBe(400);
  });

  it('five wrong passwords from one address lock that address out of the account, never the owner elsewhere', async () => {
    const { email } = await signUp(url);
    const attacker = '127.0.0.2';
    for (let i = 0; i < 5; i++) expect((await loginFrom(attacker, email, `Fout${i}abc`)).status).toBe(401);
    const locked = await loginFrom(attacker, email, GOOD_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/^Te veel mislukte inlogpogingen\. Probeer het over 1[45] minuten opnieuw\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // The owner, from another address: in, and the attacker's count stays.
    expect((await loginFrom('127.0.0.3', email, GOOD_PASSWORD)).status).toBe(200);
    expect((await loginFrom(attacker, email, GOOD_PASSWORD)).status).toBe(429);
    // Again and again from elsewhere changes nothing for the owner.
    for (let i = 0; i < 5; i++) expect((await loginFrom('127.0.0.4', email, 'Fout1234')).status).toBe(401);
    expect((await loginFrom('127.0.0.3', email, GOOD_PASSWORD)).status).toBe(200);
  });

  it('a successful login clears the failures of the account from that address', async () => {
    const { email } = await signUp(url);
    const from = '127.0.0.5';
    for (let i = 0; i < 4; i++) await loginFrom(from, email, 'Fout1234');
    expect((await loginFrom(from, email, GOOD_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await loginFrom(from, email, 'Fout1234')).status).toBe(401);
  });

  it('keeps a much higher ceiling per account across all addresses, and keys every limit by an HMAC', async () => {
    const spraying = await startAuth(stores, { AUTH_LIMIT_KEY: 'k'.repeat(40) }, { limits: { loginPerAccount: { points: 6, windowSeconds: 900 } } });
    try {
      const { email } = await signUp(spraying.url);
      for (let i = 0; i < 6; i++) expect((await loginFrom(`127.0.1.${i + 1}`, email, 'Fout1234', spraying.url)).status).toBe(401);
      const capped = await loginFrom('127.0.1.20', email, GOOD_PASSWORD, spraying.url);
      expect(capped.status).toBe(429);
      expect(capped.body.message).toMatch(/^Te veel mislukte inlogpogingen/);

      // Neither the address nor its plain hash nor a client address is in Redis.
      const keys = (await stores.redis.keys('auth:limit:*')).join('\n');
      const lower = email.toLowerCase();
      expect(keys).toContain('auth:limit:loginPerAccount:');
      expect(keys).not.toContain(lower);
      expect(keys).not.toContain(createHash('sha256').update(lower).digest('hex'));
      expect(keys).not.toMatch(/127\.0\.|10\.\d+\.\d+\.\d+/);
      const hmac = createHmac('sha256', 'k'.repeat(40)).update(`account\n${lower}`).digest('base64url');
      expect(Number(await stores.redis.get(`auth:limit:loginPerAccount:${hmac}`))).toBe(7);
    } finally {
      await spraying.stop();
    }
  });

  it('limits failed attempts per client address across accounts', async () => {
    const ip = randomIp();
    const { email } = await signUp(url);
    for (let i = 0; i < 50; i++) expect((await login(uniqueEmail(), 'Fout1234', ip)).status).toBe(401);
    expect((await login(email, GOOD_PASSWORD, ip)).status).toBe(429);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);
  });
});

describe('verify and logout', () => {
  it('verify gives the session user for a valid token and 401 otherwise', async () => {
    const { token, id } = await signUp(url);
    const ok = await verify(token);
    expect(ok.status).toBe(200);
    expect((await body(ok)).user).toMatchObject({ id, firstName: 'Sanne', activated: true });
    expect((await fetch(`${url}/api/auth/verify`)).status).toBe(401);
    expect((await verify('geen.echte.token')).status).toBe(401);
    expect((await verify(`${token.slice(0, -4)}AAAA`)).status).toBe(401);
  });

  it('logout revokes every token of the member (the version in Redis goes up); a new login works', async () => {
    const { token, email, id } = await signUp(url);
    const other = await body(await login(email, GOOD_PASSWORD));
    const before = Number(await stores.redis.get(tokenVersionKey(id)));
    const res = await post(url, '/api/auth/logout', {}, bearer(token));
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ message: AUTH_MESSAGES.loggedOut });
    expect(Number(await stores.redis.get(tokenVersionKey(id)))).toBe(before + 1);
    expect((await verify(token)).status).toBe(401);
    expect((await verify(other.token)).status).toBe(401);
    expect((await post(url, '/api/auth/logout', {}, bearer(token))).status).toBe(401);
    expect((await users.findOne({ _id: userIdOf(id) }))!.tokenVersion).toBe(before + 1);

    const again = await body(await login(email, GOOD_PASSWORD));
    expect((await verify(again.token)).status).toBe(200);
  });

  it('a Redis that lost the version cannot bring revoked tokens back', async () => {
    const { token, id, email } = await signUp(url);
    await post(url, '/api/auth/logout', {}, bearer(token));
    await stores.redis.del(tokenVersionKey(id));
    const fresh = await body(await login(email, GOOD_PASSWORD));
    expect((await verify(fresh.token)).status).toBe(200);
    expect((await verify(token)).status).toBe(401);
  });
});

describe('password reset', () => {
  it('answers the same plain text for a known and an unknown address, and mails only the known one', async () => {
    const { email } = await signUp(url);
    const unknown = uniqueEmail('onbekend');
    for (const address of [email, unknown]) {
      const res = await rawPost('/api/auth/request-password-reset', JSON.stringify(address), 'application/json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe(AUTH_MESSAGES.resetRequested);
    }
    const token = await linkTokenFromMail(url, email, 'change-password', 2);
    expect(token.length).toBeGreaterThan(30);
    expect((await mailsTo(url, email))[0]!.subject).toBe('Stel een nieuw wachtwoord in voor Ruilplein');
    expect(await mailsTo(url, unknown)).toEqual([]);
  });

  it('changes the password once with the mailed token and revokes every token', async () => {
    const { email, token: session } = await signUp(url);
    await rawPost('/api/auth/request-password-reset', email, 'text/plain');
    const token = await linkTokenFromMail(url, email, 'change-password', 2);

    const weak = await post(url, '/api/auth/change-password', { token, newPassword: 'kort' });
    expect(weak.status).toBe(400);
    expect(await errorMessages(weak)).toEqual([AUTH_MESSAGES.passwordTooShort, AUTH_MESSAGES.passwordNeedsUppercase, AUTH_MESSAGES.passwordNeedsDigit]);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);

    const res = await post(url, '/api/auth/change-password', { token, newPassword: 'Nieuw9876' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(AUTH_MESSAGES.passwordChanged);
    expect((await verify(session)).status).toBe(401);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(401);
    expect((await login(email, 'Nieuw9876')).status).toBe(200);

    const reused = await post(url, '/api/auth/change-password', { token, newPassword: 'Nogmaals1' });
    expect(reused.status).toBe(400);
    expect(await body(reused)).toEqual({ message: AUTH_MESSAGES.resetTokenInvalid });
    expect((await login(email, 'Nieuw9876')).status).toBe(200);
  });

  it('with Redis down answers 503 and keeps the password, the sessions and the link', async () => {
    const { email, token: session } = await signUp(url);
    await rawPost('/api/auth/request-password-reset', email, 'text/plain');
    const token = await linkTokenFromMail(url, email, 'change-password', 2);
    const redis: RedisClientType = createClient({ url: testStores().redisUrl, disableOfflineQueue: true });
    await redis.connect();
    const cut = await startAuth(stores, {}, { redis });
    try {
      await redis.quit();
      const res = await post(cut.url, '/api/auth/change-password', { token, newPassword: 'Nieuw9876' });
      expect(res.status).toBe(503);
      expect((await login(email, GOOD_PASSWORD)).status).toBe(200);
    } finally {
      await cut.stop();
    }
    // Once Redis answers, the same link changes the password and logs the old session out.
    expect((await post(url, '/api/auth/change-password', { token, newPassword: 'Nieuw9876' })).status).toBe(200);
    expect((await verify(session)).status).toBe(401);
  });

  it('refuses a missing or expired token and changes nothing', async () => {
    const missing = await post(url, '/api/auth/change-password', { newPassword: 'Nieuw9876' });
    expect(missing.status).toBe(400);
    expect(await errorMessages(missing)).toEqual([AUTH_MESSAGES.resetTokenMissing]);

    const { email } = await signUp(url);
    await rawPost('/api/auth/request-password-reset', JSON.stringify(email), 'application/json');
    const token = await linkTokenFromMail(url, email, 'change-password', 2);
    await users.updateOne({ email }, { $set: { 'passwordReset.expiresAt': new Date(Date.now() - 1000) } });
    const before = await snapshot(email);
    expect((await post(url, '/api/auth/change-password', { token, newPassword: 'Nieuw9876' })).status).toBe(400);
    expect(await snapshot(email)).toEqual(before);
  });

  it('limits reset mails per address', async () => {
    const { email } = await signUp(url);
    for (let i = 0; i < 3; i++) expect((await rawPost('/api/auth/request-password-reset', email, 'text/plain')).status).toBe(200);
    expect((await rawPost('/api/auth/request-password-reset', email, 'text/plain')).status).toBe(429);
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(url, email)).toHaveLength(4);
  });
});

describe('events', () => {
  it('announces registration and activation through the outbox, without the address', async () => {
    // Only this test's events: the stream holds every earlier test's (and file's) too.
    await stores.bus.jsm.streams.purge('auth');
    const seen: { type: string; payload: Record<string, unknown> }[] = [];
    const worker = await consume(stores.bus, {
      durable: `test-auth-${randomUUID().slice(0, 8)}`,
      registry: eventRegistry,
      subjects: ['auth.user.registered', 'auth.user.activated'],
      db: stores.db,
      logger: silentLogger(),
      handler: async (event) => {
        seen.push({ type: event.type, payload: event.payload as Record<string, unknown> });
      },
    });
    try {
      const { id, email } = await signUp(url);
      await expect.poll(() => seen.filter((e) => e.payload.id === id).map((e) => e.type), { timeout: 10_000 }).toEqual(['auth.user.registered', 'auth.user.activated']);
      const mine = seen.filter((e) => e.payload.id === id);
      // Each announced change counts up the member's version, so a projection can skip older states.
      expect(mine[0]!.payload.version).toBe(1);
      expect(mine[1]!.payload).toEqual({ id, version: 2, firstName: 'Sanne', lastName: 'Jansen', profilePicture: DEFAULT_AVATAR, roles: ['Gebruiker'], activated: true });
      expect((await users.findOne({ _id: userIdOf(id) }))?.version).toBe(2);
      expect(JSON.stringify(mine)).not.toContain(email);
      expect(await users.countDocuments({ _id: userIdOf(id), outbox: { $exists: true, $ne: {} } })).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});

describe('local stand-ins and the first admin', () => {
  it('seeds the demo members and admin once, activated', async () => {
    expect(await users.countDocuments({ email: { $in: DEMO_ACCOUNTS.map((a) => a.email) } })).toBe(DEMO_ACCOUNTS.length);
    const again = await startAuth(stores);
    await again.stop();
    expect(await users.countDocuments({ email: { $in: DEMO_ACCOUNTS.map((a) => a.email) } })).toBe(DEMO_ACCOUNTS.length);
    const admin = await body(await login(DEMO_ADMIN_EMAIL, DEMO_PASSWORD));
    expect(admin.user.role).toEqual(['Gebruiker', 'Beheerder']);
  });

  it('promotes the accounts of AUTH_ADMIN_EMAILS, existing ones at start and new ones at registration', async () => {
    const { email, id } = await signUp(url);
    const later = uniqueEmail('later').toLowerCase();
    const promoting = await startAuth(stores, { AUTH_ADMIN_EMAILS: ` ${email.toUpperCase()} , ${later}` });
    try {
      expect((await users.findOne({ _id: userIdOf(id) }))!.roles).toEqual(['Gebruiker', 'Beheerder']);
      const res = await post(promoting.url, '/api/auth/register', { firstName: 'S', lastName: 'J', email: later, password: GOOD_PASSWORD });
      expect(res.status).toBe(201);
      expect((await snapshot(later))!.roles).toEqual(['Gebruiker', 'Beheerder']);
    } finally {
      await promoting.stop();
    }
  });

  it('shows the kept mails at /dev/mail, newest first, and has no outbox when SMTP is configured', async () => {
    const page = await fetch(`${url}/dev/mail`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<h1>Verstuurde e-mails</h1>');
    expect(html).toContain('Activeer je Ruilplein-account');
    const list = await body(await fetch(`${url}/dev/mail/messages.json`));
    const times = list.map((m: { sentAt: string }) => m.sentAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(Object.keys(list[0]).sort()).toEqual(['headers', 'html', 'sentAt', 'service', 'subject', 'text', 'to']);

    const withSmtp = await startAuth(stores, { SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      expect((await fetch(`${withSmtp.url}/dev/mail/messages.json`)).status).toBe(404);
    } finally {
      await withSmtp.stop();
    }
  });
});
