// A blocked member (contracts auth/blocks.ts): signs in, reads the status and signs out; every other
// member route answers 403 with the block; the block ends by its date on the platform's clock.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOCKED_MESSAGE } from '@ruilplein/contracts';
import { body } from '@ruilplein/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userModel, type UserModel } from '../src/accounts/model.ts';
import { authStores, post, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
let users: UserModel;
let clockDir: string;

beforeAll(async () => {
  clockDir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
  process.env.RUILPLEIN_CLOCK_FILE = join(clockDir, 'offset');
  stores = await authStores();
  auth = await startAuth(stores);
  users = userModel(stores.db);
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

/** A member with a block in their record, signed in: the login's token. */
async function blockedMember(block: { reason: 'ban' | 'warnings'; unblockDate?: Date }) {
  const member = await signUp(auth.url);
  await users.updateOne({ _id: member.id }, { $set: { block } });
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

describe('a blocked member', () => {
  it('signs in with a token that carries the block, and may only read the status, verify and sign out', async () => {
    const until = new Date(Date.now() + 3600_000);
    const { token } = await blockedMember({ reason: 'ban', unblockDate: until });
    const unblockDate = new Date(Math.ceil(until.getTime() / 1000) * 1000).toISOString();
    expect(decodeJwt(token).blk).toEqual({ r: 'ban', u: Math.ceil(until.getTime() / 1000) });

    for (const path of ['/api/user/my', '/api/admin/users']) {
      const res = await call(path, token);
      expect(res.status, path).toBe(403);
      expect(await body(res)).toEqual({ message: BLOCKED_MESSAGE, blocked: true, reason: 'ban', unblockDate });
    }
    expect(await body(await call('/api/user/status', token))).toEqual({ blocked: true, reason: 'ban', unblockDate: until.toISOString() });
    expect((await call('/api/auth/verify', token)).status).toBe(200);
    expect((await call('/api/auth/logout', token, 'POST')).status).toBe(200);
  });

  it('is blocked until an admin lifts it when the block has no date', async () => {
    const { token } = await blockedMember({ reason: 'warnings' });
    expect(decodeJwt(token).blk).toEqual({ r: 'warnings' });
    expect(await body(await call('/api/user/my', token))).toMatchObject({ blocked: true, reason: 'warnings', unblockDate: null });
    expect(await body(await call('/api/user/status', token))).toEqual({ blocked: true, reason: 'warnings', unblockDate: null });
  });

  it('uses the platform again once the clock passes the end, with the same token', async () => {
    const { token } = await blockedMember({ reason: 'warnings', unblockDate: new Date(Date.now() + 7 * 86_400_000) });
    expect((await call('/api/user/my', token)).status).toBe(403);
    try {
      await moveClock(8 * 86_400_000);
      await eventually(async () => (await call('/api/user/my', token)).status === 200, 'the block ends');
      expect(await body(await call('/api/user/status', token))).toEqual({ blocked: false, reason: null, unblockDate: null });
    } finally {
      await moveClock(0);
    }
    await eventually(async () => (await call('/api/user/my', token)).status === 403, 'the clock is back');
  });
});
