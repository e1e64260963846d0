// Every way auth revokes a member's tokens is announced at once on the revocation channel (the
// kit's revocations.ts), so services holding websockets (chat's hub: services/chat/test/
// revocation.int.test.ts) close them: logout, password change, a suspension from moderation, and
// the deletion of the account.
import { randomUUID } from 'node:crypto';
import { eventRegistry, tokenVersionKey } from '@ruilplein/contracts';
import { createEvent, ensureStream, listenForRevocations, publishEvent, type RevocationListener } from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStores, GOOD_PASSWORD, linkTokenFromMail, post, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;
let listener: RevocationListener;
const adminEmail = `beheer.${randomUUID().slice(0, 8)}@voorbeeld.nl`;
/** Member ids as announced, in order. */
const announced: string[] = [];

beforeAll(async () => {
  stores = await authStores();
  await ensureStream(stores.bus, 'moderation');
  auth = await startAuth(stores, { AUTH_ADMIN_EMAILS: adminEmail });
  listener = await listenForRevocations(stores.redis, { logger: silentLogger(), revoked: (userId) => announced.push(userId), resync: () => {} });
});
afterAll(async () => {
  await listener?.stop();
  await auth?.stop();
  await stores?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const version = async (userId: string) => Number((await stores.redis.get(tokenVersionKey(userId))) ?? 0);
/** Waits until `userId`'s revocation was announced, and checks that the version in Redis moved. */
async function expectAnnounced(userId: string, before: number) {
  await expect.poll(() => announced.includes(userId), { timeout: 5000 }).toBe(true);
  expect(await version(userId)).toBeGreaterThan(before);
}

describe('revocations are announced', () => {
  it('at logout', async () => {
    const member = await signUp(auth.url);
    const before = await version(member.id);
    expect((await post(auth.url, '/api/auth/logout', {}, bearer(member.token))).status).toBe(200);
    await expectAnnounced(member.id, before);
  });

  it('at a password change', async () => {
    const member = await signUp(auth.url);
    const before = await version(member.id);
    expect((await post(auth.url, '/api/auth/request-password-reset', member.email)).status).toBe(200);
    const token = await linkTokenFromMail(auth.url, member.email, 'change-password');
    expect((await post(auth.url, '/api/auth/change-password', { token, newPassword: `${GOOD_PASSWORD}x` })).status).toBe(200);
    await expectAnnounced(member.id, before);
  });

  it('at a suspension (a ban from moderation)', async () => {
    const member = await signUp(auth.url);
    const before = await version(member.id);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await publishEvent(stores.bus, createEvent(eventRegistry, 'moderation.user.suspended', { userId: member.id, version: 1, reason: 'ban', endsAt: until, at: new Date().toISOString() }));
    await expectAnnounced(member.id, before);
  });

  it('at the deletion of the account', async () => {
    const admin = await signUp(auth.url, { email: adminEmail });
    const member = await signUp(auth.url);
    const before = await version(member.id);
    const res = await fetch(`${auth.url}/api/admin/delete/${member.id}`, { method: 'DELETE', headers: bearer(admin.token) });
    expect(res.status).toBe(200);
    await expectAnnounced(member.id, before);
  });

  it('not for a member whose tokens stay valid (a login)', async () => {
    const member = await signUp(auth.url);
    await post(auth.url, '/api/auth/login', { email: member.email, password: member.password });
    // Announced after: the channel delivers in order, so the login's would be there by then.
    const other = await signUp(auth.url);
    await post(auth.url, '/api/auth/logout', {}, bearer(other.token));
    await expect.poll(() => announced.includes(other.id), { timeout: 5000 }).toBe(true);
    expect(announced).not.toContain(member.id);
  });
});
