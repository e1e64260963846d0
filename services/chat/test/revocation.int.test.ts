// Probe finding 1: an open chat socket kept receiving messages after its member logged out or was
// banned. Auth revokes a member's tokens by raising their token version in Redis and announcing it
// (the kit's revokeTokenVersion, which logout, password change, deletion and suspension all go
// through: services/auth/test/revocations.int.test.ts shows each of them announcing). Here: what
// the hub does with an announcement, on both replicas, and with one it missed.
import { tokenVersionKey, type ChatMessage } from '@ruilplein/contracts';
import { REVOCATION_LISTENER_NAME, revokeTokenVersion } from '@ruilplein/service-kit';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { received, startChat, waitFor, type ChatHarness, type Replica, type TestMember } from './chat.helpers.ts';

let chat: ChatHarness;
let one: Replica;
let two: Replica;
let sanne: TestMember;

beforeAll(async () => {
  // The periodic sweep stays at its minute: what closes a socket here within seconds is the announcement.
  chat = await startChat({ replicas: 2 });
  [one, two] = chat.replicas as [Replica, Replica];
  sanne = await chat.member('Sanne');
});

afterAll(async () => {
  await chat?.close();
});

const send = async (member: TestMember, offerId: number, content: string) => {
  const res = await chat.send(member, { tradeOfferId: offerId, content });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as ChatMessage;
};
const disconnected = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

/** A new member (each case revokes once) with an offer to Sanne and a socket on each replica; Sanne's socket too; one message on all. */
async function connected(name: string) {
  const member = await chat.member(name);
  const offer = await chat.offer(member, sanne);
  const sockets = [await chat.connect(member, offer.id, { replica: one, reconnection: true }), await chat.connect(member, offer.id, { replica: two, reconnection: true })];
  const inboxes = sockets.map(received);
  const sanneInbox = received(await chat.connect(sanne, offer.id, { replica: one }));
  await send(sanne, offer.id, 'Een');
  await waitFor(() => inboxes.every((inbox) => inbox.length === 1) && sanneInbox.length === 1, 'the first message everywhere');
  return { member, offer, sockets, inboxes, sanneInbox };
}

describe('a revocation announced by auth', () => {
  // Logout, password change and ban differ only in why auth revokes; the hub hears the same announcement.
  for (const why of ['logout', 'password change', 'ban']) {
    it(`closes the member's sockets on every replica at once (${why}): no further messages, no reconnect by itself, no session to recover`, async () => {
      const { member, offer, sockets, inboxes, sanneInbox } = await connected(`Lid ${why}`);
      const gone = sockets.map(disconnected);
      await revokeTokenVersion(chat.redis, member.id);
      // A server disconnect: socket.io's client does not reconnect by itself, and no session is kept.
      expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
      await send(sanne, offer.id, 'Twee');
      await waitFor(() => sanneInbox.length === 2, "Sanne's own copy");
      expect(inboxes.map((inbox) => inbox.map((m) => m.content))).toEqual([['Een'], ['Een']]);
      expect(sockets.map((s) => s.connected)).toEqual([false, false]);
      // The revoked token cannot connect again; a new one (logged in again) can, without a session
      // to recover: it reads what it missed from the store.
      await expect(chat.connect(member, offer.id)).rejects.toThrow();
      const fresh = await chat.connect(await chat.issuer.sign({ sub: member.id, ver: 1 }), offer.id, { auth: { lastMessageId: 1 } });
      expect(fresh.recovered).toBe(false);
      const freshInbox = received(fresh);
      await waitFor(() => freshInbox.length === 1, 'what was sent meanwhile');
      expect(freshInbox.map((m) => m.content)).toEqual(['Twee']);
      fresh.close();
    });
  }

  it("leaves other members' sockets, and the member's sockets with a token as new as the version, open", async () => {
    const { member, offer, sockets, sanneInbox } = await connected('Lid met nieuw token');
    const renewed = await chat.connect(await chat.issuer.sign({ sub: member.id, ver: 1 }), offer.id, { replica: two });
    const renewedInbox = received(renewed);
    const gone = sockets.map(disconnected);
    // Version 1 now: the tokens with version 0 are revoked, the renewed one (version 1) is not.
    await revokeTokenVersion(chat.redis, member.id);
    await Promise.all(gone);
    await send(sanne, offer.id, 'Nog verbonden');
    await waitFor(() => renewedInbox.length === 1 && sanneInbox.length === 2, 'the message on the sockets left open');
    expect(renewed.connected).toBe(true);
    renewed.close();
  });
});

describe('a revocation the hub was not told of', () => {
  it('is found when the listeners connect to Redis again (announcements may have been lost meanwhile)', async () => {
    const { member, offer, sockets, inboxes } = await connected('Lid zonder bericht');
    // Revoked without an announcement, as if it came while the listeners were cut off from Redis.
    await chat.redis.incr(tokenVersionKey(member.id));
    await send(sanne, offer.id, 'Nog niet gemerkt');
    await waitFor(() => inboxes.every((inbox) => inbox.length === 2), 'a message while the hub does not know yet');
    expect(sockets.map((s) => s.connected)).toEqual([true, true]);
    const gone = sockets.map(disconnected);
    // Cut both replicas' listeners off: they connect again by themselves and check every socket.
    const list = String(await chat.redis.sendCommand(['CLIENT', 'LIST']));
    const ids = [...list.matchAll(/\bid=(\d+)\b[^\n]*\bname=(\S*)/g)].filter((m) => m[2] === REVOCATION_LISTENER_NAME).map((m) => m[1]!);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    for (const id of ids) await chat.redis.sendCommand(['CLIENT', 'KILL', 'ID', id]);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
  });

});
