// A suspended member (contracts auth/suspensions.ts): signs in, reads the status and signs out; every
// other member route answers 403 with the suspension; it ends by its date on the platform's clock.
// Accounts suspended before the rename (the record's `block`) are suspended alike.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUSPENDED_MESSAGE } from '@ruilplein/contracts';
import { body } from '@ruilplein/service-kit/testing';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Types } from 'mongoose';
import { userCollection, type UserCollection } from '../src/accounts/model.ts';
import { loadSigningKey, type SigningKey } from '../src/accounts/tokens.ts';
import { authStores, post, signUp, startAuth, testKeyPem, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
let users: UserCollection;
let clockDir: string;
let key: SigningKey;

beforeAll(async () => {
  clockDir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
  process.env.RUILPLEIN_CLOCK_FILE = join(clockDir, 'offset');
  stores = await authStores();
  const pem = testKeyPem();
  key = await loadSigningKey(pem);
  auth = await startAuth(stores, { AUTH_JWT_PRIVATE_KEY: pem });
  users = userCollection(stores.db);
});
afterAll(async () => {
  delete process.env.RUILPLEIN_CLOCK_FILE;
  await auth.stop();
  await stores.close();
  await rm(clockDir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (path: string, token: string, method = 'GET') => fetch(`${auth.url}${path}`, { method, headers: bearer(token) });
const moveClock = (ms: number) => writeFile(process.env.RUILPLEIN_CLOCK_FILE!, String(ms));

type Stored = { suspension: { reason: 'ban' | 'warnings'; endsAt?: Date } } | { block: { reason: 'ban' | 'warnings'; unblockDate?: Date } };

/** A member with a suspension in their record (under the name it is stored by), signed in: the login's token. */
async function suspendedMember(stored: Stored) {
  const member = await signUp(auth.url);
  await users.updateOne({ _id: new Types.ObjectId(member.id) }, { $set: stored });
  const res = await post(auth.url, '/api/auth/login', { email: member.email, password: member.password });
  expect(res.status).toBe(200);
  return { ...member, token: ((await body(res)) as { token: string }).token };
}

/** Polls until `check` holds: the services re-read the clock file within 200 ms. */
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('a suspended member', () => {
  it('signs in with a token that carries the suspension, and may only read the status, verify and sign out', async () => {
    const until = new Date(Date.now() + 3600_000);
    const { token } = await suspendedMember({ suspension: { reason: 'ban', endsAt: until } });
    const unblockDate = new Date(Math.ceil(until.getTime() / 1000) * 1000).toISOString();
    expect(decodeJwt(token).sus).toEqual({ r: 'ban', u: Math.ceil(until.getTime() / 1000) });
    expect(decodeJwt(token)).not.toHaveProperty('blk');

    for (const path of ['/api/user/my', '/api/admin/users']) {
      const res = await call(path, token);
      expect(res.status, path).toBe(403);
      expect(await body(res)).toEqual({ message: SUSPENDED_MESSAGE, blocked: true, reason: 'ban', unblockDate });
    }
    expect(await body(await call('/api/user/status', token))).toEqual({ blocked: true, reason: 'ban', unblockDate: until.toISOString() });
    expect((await call('/api/auth/verify', token)).status).toBe(200);
    expect((await call('/api/auth/logout', token, 'POST')).status).toBe(200);
  });

  it('is suspended until a moderator lifts it when the suspension has no date', async () => {
    const { token } = await suspendedMember({ suspension: { reason: 'warnings' } });
    expect(decodeJwt(token).sus).toEqual({ r: 'warnings' });
    expect(await body(await call('/api/user/my', token))).toMatchObject({ blocked: true, reason: 'warnings', unblockDate: null });
    expect(await body(await call('/api/user/status', token))).toEqual({ blocked: true, reason: 'warnings', unblockDate: null });
  });

  it('uses the platform again once the clock passes the end, with the same token', async () => {
    const { token } = await suspendedMember({ suspension: { reason: 'warnings', endsAt: new Date(Date.now() + 7 * 86_400_000) } });
    expect((await call('/api/user/my', token)).status).toBe(403);
    try {
      await moveClock(8 * 86_400_000);
      await eventually(async () => (await call('/api/user/my', token)).status === 200, 'the suspension ends');
      expect(await body(await call('/api/user/status', token))).toEqual({ blocked: false, reason: null, unblockDate: null });
    } finally {
      await moveClock(0);
    }
    await eventually(async () => (await call('/api/user/my', token)).status === 403, 'the clock is back');
  });

  it('stays suspended when the record holds the suspension as written before the rename (`block`)', async () => {
    const until = new Date(Date.now() + 3600_000);
    const { token } = await suspendedMember({ block: { reason: 'ban', unblockDate: until } });
    expect(decodeJwt(token).sus).toEqual({ r: 'ban', u: Math.ceil(until.getTime() / 1000) });
    expect((await call('/api/user/my', token)).status).toBe(403);
    expect(await body(await call('/api/user/status', token))).toEqual({ blocked: true, reason: 'ban', unblockDate: until.toISOString() });
    const ended = await suspendedMember({ block: { reason: 'warnings', unblockDate: new Date(Date.now() - 1000) } });
    expect(decodeJwt(ended.token)).not.toHaveProperty('sus');
    expect(await body(await call('/api/user/status', ended.token))).toEqual({ blocked: false, reason: null, unblockDate: null });
  });

  it('is refused with a token issued before the rename, its suspension under `blk`, until it ends', async () => {
    const until = new Date(Date.now() + 3600_000);
    const { token } = await suspendedMember({ suspension: { reason: 'ban', endsAt: until } });
    // The same token as auth signed it before the rename: the claim named `blk`.
    const { sus, ...claims } = decodeJwt(token);
    const before = await new SignJWT({ ...claims, blk: sus }).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
    const unblockDate = new Date(Math.ceil(until.getTime() / 1000) * 1000).toISOString();
    const res = await call('/api/user/my', before);
    expect(res.status).toBe(403);
    expect(await body(res)).toEqual({ message: SUSPENDED_MESSAGE, blocked: true, reason: 'ban', unblockDate });
    expect((await call('/api/user/status', before)).status).toBe(200);
    try {
      await moveClock(2 * 3600_000);
      await eventually(async () => (await call('/api/user/my', before)).status === 200, 'the suspension in `blk` ends');
    } finally {
      await moveClock(0);
    }
  });
});
