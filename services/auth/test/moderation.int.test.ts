// Suspensions from the moderation service (`moderation.user.*`) through the consumer the assembled
// auth service starts: the suspension set and every token revoked, the end clearing it, older events
// ignored; events under the names before the rename applied alike.
import { eventRegistry, legacySuspensionEvents } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Types } from 'mongoose';
import { userCollection, userIdOf } from '../src/accounts/model.ts';
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
const suspended = (userId: string, version: number, reason: 'ban' | 'warnings', endsAt: string | null) =>
  createEvent(eventRegistry, 'moderation.user.suspended', { userId, version, reason, endsAt, at: new Date().toISOString() });
const ended = (userId: string, version: number, cause?: 'expired' | 'lifted') =>
  createEvent(eventRegistry, 'moderation.user.suspension-ended', { userId, version, ...(cause && { cause }), at: new Date().toISOString() });
/** As the moderation service published them before the rename. */
const legacy = {
  suspended: (type: 'moderation.user.banned' | 'moderation.user.blocked', userId: string, version: number, unblockDate: string | null) =>
    createEvent(legacySuspensionEvents, type, { userId, version, reason: type === 'moderation.user.banned' ? 'ban' : 'warnings', unblockDate, at: new Date().toISOString() }),
  ended: (userId: string, version: number) => createEvent(legacySuspensionEvents, 'moderation.user.unblocked', { userId, version, at: new Date().toISOString() }),
};

describe('moderation events in auth', () => {
  it('a ban suspends the member and revokes their tokens at once; signing in again carries the suspension', async () => {
    const member = await signUp(auth.url);
    const token = await loggedIn(member);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await publishEvent(stores.bus, suspended(member.id, 1, 'ban', until));
    await eventually(async () => (await fetch(`${auth.url}/api/auth/verify`, { headers: bearer(token) })).status === 401, 'the old token is revoked');
    const again = await loggedIn(member);
    expect(decodeJwt(again).sus).toMatchObject({ r: 'ban' });
    expect(await status(again)).toEqual({ blocked: true, reason: 'ban', unblockDate: until });
    expect((await fetch(`${auth.url}/api/user/my`, { headers: bearer(again) })).status).toBe(403);
  });

  it('the end of a suspension clears it; an older event after a newer one changes nothing', async () => {
    const member = await signUp(auth.url);
    const users = userCollection(stores.db);
    await publishEvent(stores.bus, suspended(member.id, 2, 'warnings', new Date(Date.now() + 86_400_000).toISOString()));
    await eventually(async () => !!(await users.findOne({ _id: userIdOf(member.id) }))?.suspension, 'the suspension is set');
    await publishEvent(stores.bus, ended(member.id, 3));
    await eventually(async () => !(await users.findOne({ _id: userIdOf(member.id) }))?.suspension, 'the suspension is cleared');
    await publishEvent(stores.bus, suspended(member.id, 1, 'ban', null));
    // A newer event behind it shows the older one was handled (and ignored) first.
    await publishEvent(stores.bus, ended(member.id, 4));
    await eventually(async () => (await users.findOne({ _id: userIdOf(member.id) }))?.moderationVersion === 4, 'the newest event applied');
    expect((await users.findOne({ _id: userIdOf(member.id) }))?.suspension).toBeUndefined();
    expect(await status(await loggedIn(member))).toEqual({ blocked: false, reason: null, unblockDate: null });
  });

  it.each(['moderation.user.banned', 'moderation.user.blocked'] as const)('applies %s, published before the rename, as a suspension, and moderation.user.unblocked as its end', async (type) => {
    const member = await signUp(auth.url);
    const users = userCollection(stores.db);
    const token = await loggedIn(member);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await publishEvent(stores.bus, legacy.suspended(type, member.id, 1, until));
    await eventually(async () => (await fetch(`${auth.url}/api/auth/verify`, { headers: bearer(token) })).status === 401, 'the old token is revoked');
    const again = await loggedIn(member);
    expect(await status(again)).toEqual({ blocked: true, reason: type === 'moderation.user.banned' ? 'ban' : 'warnings', unblockDate: until });
    expect((await users.findOne({ _id: userIdOf(member.id) }))?.suspension).toEqual({ reason: type === 'moderation.user.banned' ? 'ban' : 'warnings', endsAt: new Date(until) });
    await publishEvent(stores.bus, legacy.ended(member.id, 2));
    await eventually(async () => (await users.findOne({ _id: userIdOf(member.id) }))?.moderationVersion === 2, 'the end applied');
    expect(await status(await loggedIn(member))).toEqual({ blocked: false, reason: null, unblockDate: null });
  });

  it('a suspension replaces one stored before the rename; its end clears both', async () => {
    const member = await signUp(auth.url);
    const users = userCollection(stores.db);
    const _id = new Types.ObjectId(member.id);
    await users.updateOne({ _id }, { $set: { block: { reason: 'ban' } } });
    await publishEvent(stores.bus, suspended(member.id, 1, 'warnings', null));
    await eventually(async () => (await users.findOne({ _id: userIdOf(member.id) }))?.moderationVersion === 1, 'the suspension applied');
    expect(await users.findOne({ _id }, { projection: { suspension: 1, block: 1 } })).toEqual({ _id, suspension: { reason: 'warnings' } });
    await users.updateOne({ _id }, { $set: { block: { reason: 'ban' } } });
    await publishEvent(stores.bus, ended(member.id, 2));
    await eventually(async () => (await users.findOne({ _id: userIdOf(member.id) }))?.moderationVersion === 2, 'the end applied');
    expect(await users.findOne({ _id }, { projection: { suspension: 1, block: 1 } })).toEqual({ _id });
  });

  // Issue 27: an admin lifts a permanent ban; the lift rides on suspension-ended (cause 'lifted').
  it('a lifted ban lets the member in at once; the ban redelivered after the lift changes nothing', async () => {
    const member = await signUp(auth.url);
    const users = userCollection(stores.db);
    await publishEvent(stores.bus, suspended(member.id, 1, 'ban', null));
    const during = await loggedIn(member);
    await eventually(async () => (await status(during)).blocked === true, 'the ban applied');
    await publishEvent(stores.bus, ended(member.id, 2, 'lifted'));
    await eventually(async () => (await users.findOne({ _id: userIdOf(member.id) }))?.moderationVersion === 2, 'the lift applied');
    const after = await loggedIn(member);
    expect(decodeJwt(after).sus).toBeUndefined();
    expect(await status(after)).toEqual({ blocked: false, reason: null, unblockDate: null });
    expect((await fetch(`${auth.url}/api/user/my`, { headers: bearer(after) })).status).toBe(200);
    // The ban again (a redelivery) and a newer event behind it: the ban is older than the lift, ignored.
    await publishEvent(stores.bus, suspended(member.id, 1, 'ban', null));
    await publishEvent(stores.bus, ended(member.id, 3, 'lifted'));
    await eventually(async () => (await users.findOne({ _id: userIdOf(member.id) }))?.moderationVersion === 3, 'the newest event applied');
    expect((await fetch(`${auth.url}/api/auth/verify`, { headers: bearer(after) })).status).toBe(200);
    expect(await status(after)).toEqual({ blocked: false, reason: null, unblockDate: null });
  });
});
