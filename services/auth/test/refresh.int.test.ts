import { createHash } from 'node:crypto';
import { AUTH_MESSAGES, authRoutes, SUSPENDED_MESSAGE } from '@ruilplein/contracts';
import { createTokenVerifier } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCollection, userIdOf, type UserCollection } from '../src/accounts/model.ts';
import { REFRESH_COOKIE, refreshCollection, removeEndedSessions, REUSE_GRACE_SECONDS, type RefreshCollection } from '../src/accounts/refresh.ts';
import { authStores, linkTokenFromMail, post, randomIp, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
let users: UserCollection;
let sessions: RefreshCollection;
let url: string;

beforeAll(async () => {
  stores = await authStores();
  auth = await startAuth(stores);
  users = userCollection(stores.db);
  sessions = refreshCollection(stores.db);
  url = auth.url;
});
afterAll(async () => {
  await auth.stop();
  await stores.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const verify = (token: string, at = url) => fetch(`${at}/api/auth/verify`, { headers: bearer(token) });

/** The refresh cookie a response sets: its value ('' when cleared) and its attributes, lowercased. */
function refreshCookie(res: Response): { value: string; attributes: Map<string, string> } | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
  if (!line) return undefined;
  const [pair, ...rest] = line.split(';').map((s) => s.trim());
  const attributes = new Map(rest.map((a) => [a.split('=')[0]!.toLowerCase(), a.split('=').slice(1).join('=')]));
  return { value: pair!.slice(REFRESH_COOKIE.length + 1), attributes };
}

const cleared = (res: Response) => {
  const cookie = refreshCookie(res);
  return !!cookie && cookie.value === '' && new Date(cookie.attributes.get('expires')!).getTime() < Date.now();
};

/** What the browser does: POST with the cookie and no body. */
const refresh = (cookie: string | undefined, at = url, headers: Record<string, string> = {}) =>
  fetch(`${at}${authRoutes.refresh.path}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': randomIp(), ...(cookie !== undefined && { cookie: `andere=1; ${REFRESH_COOKIE}=${cookie}` }), ...headers },
  });

/** A member logged in: the access token and the refresh cookie's value. */
async function loggedIn(at = url, headers: Record<string, string> = {}) {
  const member = await signUp(at);
  const res = await post(at, '/api/auth/login', { email: member.email, password: member.password }, headers);
  expect(res.status).toBe(200);
  const cookie = refreshCookie(res);
  expect(cookie, 'login sets the refresh cookie').toBeDefined();
  const answer = await body(res);
  return { ...member, answer, token: answer.token as string, cookie: cookie!.value, res };
}

/** Refreshes and expects success: the new access token and the new cookie value (if rotated). */
async function refreshed(cookie: string) {
  const res = await refresh(cookie);
  expect(res.status, await res.clone().text()).toBe(200);
  const { token } = await body(res);
  return { token: token as string, cookie: refreshCookie(res)?.value, res };
}

async function expectRefused(res: Response) {
  expect(res.status).toBe(401);
  expect(await body(res)).toEqual({ message: AUTH_MESSAGES.sessionEnded });
  expect(cleared(res), 'the cookie is cleared').toBe(true);
}

const familyOf = (cookie: string) => cookie.split('.')[0]!;

describe('login', () => {
  it('answers as before and sets an httpOnly, SameSite=Strict refresh cookie scoped to /api/auth, stored only as a hash', async () => {
    const { res, cookie, token, id, answer } = await loggedIn();
    expect(Object.keys(answer).sort()).toEqual(['token', 'user']);
    expect(answer.user.id).toBe(id);
    const { attributes } = refreshCookie(res)!;
    expect(attributes.has('httponly')).toBe(true);
    expect(attributes.get('samesite')).toBe('Strict');
    expect(attributes.get('path')).toBe('/api/auth');
    expect(attributes.get('max-age')).toBe(String(7 * 86_400));
    // Plain http (localhost): a Secure cookie would not be kept.
    expect(attributes.has('secure')).toBe(false);

    const claims = decodeJwt(token);
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'roles', 'sub', 'ver']);
    expect(claims.exp! - claims.iat!).toBe(15 * 60);

    const stored = (await sessions.findOne({ _id: familyOf(cookie) }))!;
    expect(stored).toMatchObject({ userId: id, tokenVersion: claims.ver });
    const secret = cookie.split('.')[1]!;
    expect(stored.tokenHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('marks the cookie Secure when the trusted proxy says the browser used https', async () => {
    const { res } = await loggedIn(url, { 'x-forwarded-proto': 'https' });
    expect(refreshCookie(res)!.attributes.has('secure')).toBe(true);
  });
});

describe('refresh', () => {
  it('gives a working access token with the current roles and rotates the cookie', async () => {
    const first = await loggedIn();
    await users.updateOne({ _id: userIdOf(first.id) }, { $addToSet: { roles: 'Premium' } });
    const next = await refreshed(first.cookie);
    expect(next.cookie).toBeDefined();
    expect(familyOf(next.cookie!)).toBe(familyOf(first.cookie));
    expect(next.cookie).not.toBe(first.cookie);
    expect(refreshCookie(next.res)!.attributes.get('path')).toBe('/api/auth');
    expect(next.res.headers.get('cache-control')).toMatch(/no-store/);
    expect(decodeJwt(next.token)).toMatchObject({ sub: first.id, roles: ['Gebruiker', 'Premium'], ver: decodeJwt(first.token).ver });
    expect((await verify(next.token)).status).toBe(200);
    // The rotated cookie keeps working.
    const third = await refreshed(next.cookie!);
    expect((await verify(third.token)).status).toBe(200);
  });

  it('accepts the token just replaced for a few seconds without a new cookie (two tabs at once)', async () => {
    const { cookie } = await loggedIn();
    const [a, b] = await Promise.all([refresh(cookie), refresh(cookie)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // One of them rotated, the other was the second of two at once.
    const rotated = [refreshCookie(a), refreshCookie(b)].filter(Boolean);
    expect(rotated).toHaveLength(1);
    expect(REUSE_GRACE_SECONDS).toBeLessThanOrEqual(10);
    // The session lives on with the new cookie.
    expect((await refresh(rotated[0]!.value)).status).toBe(200);
  });

  it('a token replaced before the last refresh comes back: 401 and the whole family is ended', async () => {
    const { cookie: oldest } = await loggedIn();
    const second = await refreshed(oldest);
    const third = await refreshed(second.cookie!);
    await expectRefused(await refresh(oldest));
    expect((await sessions.findOne({ _id: familyOf(oldest) }))!.revokedAt).toBeInstanceOf(Date);
    // Also the newest cookie, held by whoever was first, is dead now.
    await expectRefused(await refresh(third.cookie!));
    await expectRefused(await refresh(second.cookie!));
  });

  it('refuses a missing, malformed, unknown or expired cookie with 401 and clears it', async () => {
    await expectRefused(await refresh(undefined));
    await expectRefused(await refresh('kapot'));
    await expectRefused(await refresh(`${'A'.repeat(22)}.${'B'.repeat(43)}`));
    const { cookie } = await loggedIn();
    // A guessed secret for a real family counts as a stolen one.
    await expectRefused(await refresh(`${familyOf(cookie)}.${'B'.repeat(43)}`));
    const expiring = await loggedIn();
    await sessions.updateOne({ _id: familyOf(expiring.cookie) }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    await expectRefused(await refresh(expiring.cookie));
  });

  it('refuses a member who was suspended, deactivated or deleted; a suspension says so (403 with reason and date)', async () => {
    const suspendedMember = await loggedIn();
    const until = new Date(Date.now() + 86_400_000);
    await users.updateOne({ _id: userIdOf(suspendedMember.id) }, { $set: { suspension: { reason: 'ban', endsAt: until } } });
    const refused = await refresh(suspendedMember.cookie);
    expect(refused.status).toBe(403);
    expect(await body(refused)).toEqual({ message: SUSPENDED_MESSAGE, blocked: true, reason: 'ban', unblockDate: new Date(Math.ceil(until.getTime() / 1000) * 1000).toISOString() });
    expect(cleared(refused), 'the cookie is cleared').toBe(true);
    // The session is over, not just refused this once.
    await users.updateOne({ _id: userIdOf(suspendedMember.id) }, { $unset: { suspension: '' } });
    await expectRefused(await refresh(suspendedMember.cookie));

    const endedSuspension = await loggedIn();
    await users.updateOne({ _id: userIdOf(endedSuspension.id) }, { $set: { suspension: { reason: 'warnings', endsAt: new Date(Date.now() - 1000) } } });
    expect((await refresh(endedSuspension.cookie)).status).toBe(200);

    const inactive = await loggedIn();
    await users.updateOne({ _id: userIdOf(inactive.id) }, { $set: { activated: false } });
    await expectRefused(await refresh(inactive.cookie));

    const deleted = await loggedIn();
    await users.deleteOne({ _id: userIdOf(deleted.id) });
    await expectRefused(await refresh(deleted.cookie));
  });
});

describe('revocation', () => {
  it('logout clears the cookie and ends the session; refresh answers 401', async () => {
    const { token, cookie } = await loggedIn();
    const res = await fetch(`${url}/api/auth/logout`, { method: 'POST', headers: { ...bearer(token), cookie: `${REFRESH_COOKIE}=${cookie}` } });
    expect(res.status).toBe(200);
    expect(cleared(res)).toBe(true);
    expect((await sessions.findOne({ _id: familyOf(cookie) }))!.revokedAt).toBeInstanceOf(Date);
    await expectRefused(await refresh(cookie));
  });

  it('logout on one device ends the sessions on the others (the token version)', async () => {
    const member = await loggedIn();
    const other = await post(url, '/api/auth/login', { email: member.email, password: member.password });
    const otherCookie = refreshCookie(other)!.value;
    expect((await post(url, '/api/auth/logout', {}, bearer(member.token))).status).toBe(200);
    await expectRefused(await refresh(otherCookie));
  });

  it('a password change ends every session', async () => {
    const member = await loggedIn();
    const asked = await post(url, '/api/auth/request-password-reset', member.email);
    expect(asked.status).toBe(200);
    const token = await linkTokenFromMail(url, member.email, 'change-password', 2);
    expect((await post(url, '/api/auth/change-password', { token, newPassword: 'Nieuw9876' })).status).toBe(200);
    await expectRefused(await refresh(member.cookie));
    // The new password starts a session that refreshes.
    const again = await post(url, '/api/auth/login', { email: member.email, password: 'Nieuw9876' });
    expect((await refresh(refreshCookie(again)!.value)).status).toBe(200);
  });

  it('the cleanup removes ended sessions', async () => {
    const { cookie } = await loggedIn();
    await sessions.updateOne({ _id: familyOf(cookie) }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await removeEndedSessions(sessions)).toBeGreaterThanOrEqual(1);
    expect(await sessions.findOne({ _id: familyOf(cookie) })).toBeNull();
  });
});

describe('short access tokens', () => {
  it('an expired access token is refused; a refresh brings a working one', async () => {
    // Long enough to be checked once while valid on a busy machine, short enough to wait out.
    const short = await startAuth(stores, {}, { tokenTtl: { accessSeconds: 4 } });
    try {
      const member = await loggedIn(short.url);
      const jwks = createTokenVerifier(`${short.url}/.well-known/jwks.json`);
      await expect(jwks(member.token)).resolves.toMatchObject({ userId: member.id });
      await expect.poll(async () => (await verify(member.token, short.url)).status, { timeout: 10_000, interval: 200 }).toBe(401);
      await expect(jwks(member.token)).rejects.toMatchObject({ status: 401 });
      // The browser may still send the expired token along: the public route serves it anyway.
      const res = await refresh(member.cookie, short.url, bearer(member.token));
      expect(res.status).toBe(200);
      const { token } = await body(res);
      await expect(jwks(token)).resolves.toMatchObject({ userId: member.id });
    } finally {
      await short.stop();
    }
  });

  it('reads the lifetimes from the environment; AUTH_TOKEN_TTL_HOURS still sets the session length', async () => {
    const configured = await startAuth(stores, { AUTH_ACCESS_TOKEN_TTL_MINUTES: '5', AUTH_TOKEN_TTL_HOURS: '24' });
    try {
      const member = await loggedIn(configured.url);
      const claims = decodeJwt(member.token);
      expect(claims.exp! - claims.iat!).toBe(5 * 60);
      expect(refreshCookie(member.res)!.attributes.get('max-age')).toBe(String(24 * 3600));
    } finally {
      await configured.stop();
    }
    const days = await startAuth(stores, { AUTH_REFRESH_TOKEN_TTL_DAYS: '2', AUTH_TOKEN_TTL_HOURS: '24' });
    try {
      const member = await loggedIn(days.url);
      expect(refreshCookie(member.res)!.attributes.get('max-age')).toBe(String(2 * 86_400));
    } finally {
      await days.stop();
    }
  });
});
