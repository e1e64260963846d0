// Blocks from the moderation service (`moderation.user.*`) through the consumer the assembled auth
// service starts: the block set and every token revoked, the end clearing it, older events ignored.
import { eventRegistry } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userModel } from '../src/accounts/model.ts';
import { authStores, post, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;

beforeAll(async () => {
  stores = await authStores();
  await ensureStream(stores.bus, 'moderation');
  await stores.bus.jsm.streams.purge('moderation');
  auth = await startAuth(stores);
});
afterAll(async () => {
  await auth.stop();
  await stores.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const status = async (token: string) => body(await fetch(`${auth.url}/api/user/status`, { headers: bearer(token) }));
async function loggedIn(member: { email: string; password: string }) {
  const res = await post(auth.url, '/api/auth/login', { email: member.email, password: member.password });
  expect(res.status).toBe(200);
  return ((await body(res)) as { token: string }).token;
}
async function eventually(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}
const blocked = (type: 'moderation.user.banned' | 'moderation.user.blocked', userId: string, version: number, unblockDate: string | null) =>
  createEvent(eventRegistry, type, { userId, version, reason: type === 'moderation.user.banned' ? 'ban' : 'warnings', unblockDate, at: new Date().toISOString() });

describe('moderation events in auth', () => {
  it('a ban blocks the member and revokes their tokens at once; signing in again carries the block', async () => {
    const member = await signUp(auth.url);
    const token = await loggedIn(member);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await publishEvent(stores.bus, blocked('moderation.user.banned', member.id, 1, until));
    await eventually(async () => (await fetch(`${auth.url}/api/auth/verify`, { headers: bearer(token) })).status === 401, 'the old token is revoked');
    const again = await loggedIn(member);
    expect(decodeJwt(again).blk).toMatchObject({ r: 'ban' });
    expect(await status(again)).toEqual({ blocked: true, reason: 'ban', unblockDate: until });
    expect((await fetch(`${auth.url}/api/user/my`, { headers: bearer(again) })).status).toBe(403);
  });

  it('the end of a block clears it; an older event after a newer one changes nothing', async () => {
    const member = await signUp(auth.url);
    const users = userModel(stores.db);
    await publishEvent(stores.bus, blocked('moderation.user.blocked', member.id, 2, new Date(Date.now() + 86_400_000).toISOString()));
    await eventually(async () => !!(await users.findById(member.id).lean())?.block, 'the block is set');
    await publishEvent(stores.bus, createEvent(eventRegistry, 'moderation.user.unblocked', { userId: member.id, version: 3, at: new Date().toISOString() }));
    await eventually(async () => !(await users.findById(member.id).lean())?.block, 'the block is cleared');
    await publishEvent(stores.bus, blocked('moderation.user.banned', member.id, 1, null));
    // A newer event behind it shows the older one was handled (and ignored) first.
    await publishEvent(stores.bus, createEvent(eventRegistry, 'moderation.user.unblocked', { userId: member.id, version: 4, at: new Date().toISOString() }));
    await eventually(async () => (await users.findById(member.id).lean())?.moderationVersion === 4, 'the newest event applied');
    expect((await users.findById(member.id).lean())?.block).toBeUndefined();
    expect(await status(await loggedIn(member))).toEqual({ blocked: false, reason: null, unblockDate: null });
  });
});
