// The real-time hub on real stores, two replicas sharing rooms through Redis: who may connect (a
// real HTTP refusal otherwise), what each party receives and when (only after it was stored), and
// how a client that lost its connection gets everything it missed: recovered on either replica,
// or sent after its last seen id. The way a browser takes (the edge, the gateway, then the hub) is
// the browser journey's (e2e/trades-swap.e2e.test.ts); the gateway's pass-through and its refusal
// of a hub upgrade without a token are the gateway's own tests: services never import each other.
import { CHAT_HUB, CHAT_MESSAGES, tokenVersionKey, type ChatMessage } from '@ruilplein/contracts';
import { MESSAGES } from '@ruilplein/service-kit';
import { upgradeRefusal } from '@ruilplein/service-kit/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, received, startChat, waitFor, type ChatHarness, type Replica, type TestMember } from './chat.helpers.ts';

const NOT_LOGGED_IN = 'Je bent niet ingelogd of je sessie is verlopen.';

let chat: ChatHarness;
let one: Replica;
let two: Replica;
let sanne: TestMember;
let daan: TestMember;
let lotte: TestMember;

beforeAll(async () => {
  chat = await startChat({ replicas: 2 });
  [one, two] = chat.replicas as [Replica, Replica];
  [sanne, daan, lotte] = await Promise.all([chat.member('Sanne'), chat.member('Daan'), chat.member('Lotte')]);
});

afterAll(async () => {
  await chat?.close();
});

const send = async (member: TestMember, offerId: number, content: string, replica = one): Promise<ChatMessage> => {
  const res = await chat.send(member, { tradeOfferId: offerId, content }, replica);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as ChatMessage;
};

/** A raw websocket upgrade to the hub that must be refused: its HTTP status and body. */
const refusal = (path: string, headers: Record<string, string> = { origin: ORIGIN }) => upgradeRefusal(`${one.url}${path}`, headers);

const hubPath = (query: Record<string, string>) => `/chathub/?EIO=4&transport=websocket&${new URLSearchParams(query)}`;

/** The sockets' message contents, once each has `count`. */
async function contentsOnce(sockets: Array<ReturnType<typeof received>>, count: number) {
  await waitFor(() => sockets.every((s) => s.length >= count), `${count} messages on every socket`);
  return sockets.map((s) => s.map((m) => m.content));
}

describe('handshake', () => {
  it('refuses with a real HTTP answer: no, a bad, an expired or a revoked token 401; another site or a third member 403; an unknown offer 404; no offer 400', async () => {
    const offer = await chat.offer(sanne, daan);
    const offerId = String(offer.id);
    const expired = await chat.issuer.sign({ sub: daan.id }, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const cases: Array<[string, Record<string, string> | undefined, number, string]> = [
      [hubPath({ offerId }), undefined, 401, NOT_LOGGED_IN],
      [hubPath({ offerId, access_token: await chat.issuer.signWithForeignKey({ sub: daan.id }) }), undefined, 401, NOT_LOGGED_IN],
      [hubPath({ offerId, access_token: chat.issuer.unsigned({ sub: daan.id }) }), undefined, 401, NOT_LOGGED_IN],
      [hubPath({ offerId, access_token: expired }), undefined, 401, NOT_LOGGED_IN],
      [hubPath({ offerId, access_token: daan.token }), { origin: 'https://elders.example' }, 403, CHAT_MESSAGES.wrongOrigin],
      [hubPath({ offerId, access_token: lotte.token }), undefined, 403, CHAT_MESSAGES.notParty],
      [hubPath({ offerId: '999999999999', access_token: daan.token }), undefined, 404, CHAT_MESSAGES.notFound],
      [hubPath({ access_token: daan.token }), undefined, 400, CHAT_MESSAGES.offerRequired],
      [hubPath({ offerId: '12abc', access_token: daan.token }), undefined, 400, CHAT_MESSAGES.invalidOffer],
      [`/elders/?EIO=4&transport=websocket&offerId=${offerId}&access_token=${daan.token}`, undefined, 404, MESSAGES.notFound],
    ];
    for (const [path, headers, status, message] of cases) {
      const res = await refusal(path, headers);
      expect(res.status, path).toBe(status);
      expect(JSON.parse(res.body), path).toEqual({ message });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Revoked: auth raised the member's token version (logout, ban) after this token was issued.
    await chat.redis.set(tokenVersionKey(daan.id), '1');
    try {
      const res = await refusal(hubPath({ offerId, access_token: daan.token }));
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    } finally {
      await chat.redis.del(tokenVersionKey(daan.id));
    }
    // socket.io's client sees a connect error.
    await expect(chat.connect(lotte, offer.id)).rejects.toThrow();
    await expect(chat.connect(undefined, offer.id)).rejects.toThrow();
  });

  it('lets the two parties in from the platform, or from no page at all (no Origin), with the token in the query or the Authorization header', async () => {
    const offer = await chat.offer(sanne, daan);
    const sockets = [
      await chat.connect(sanne, offer.id),
      await chat.connect(daan, offer.id, { replica: two }),
      await chat.connect(daan, offer.id, { origin: null }),
      await chat.connect(undefined, offer.id, { manager: { extraHeaders: { origin: ORIGIN, authorization: `Bearer ${sanne.token}` } } }),
    ];
    const inboxes = sockets.map(received);
    await send(daan, offer.id, 'Hallo allemaal');
    expect(await contentsOnce(inboxes, 1)).toEqual([['Hallo allemaal'], ['Hallo allemaal'], ['Hallo allemaal'], ['Hallo allemaal']]);
    for (const socket of sockets) socket.close();
  });
});

describe('messages', () => {
  it("sends each stored message to both parties' sockets as ReceiveMessage(firstName, content, message), and to nobody else", async () => {
    const offer = await chat.offer(sanne, daan);
    const elsewhere = await chat.offer(lotte, daan);
    const [sanneInbox, daanInbox, lotteInbox] = [
      received(await chat.connect(sanne, offer.id)),
      received(await chat.connect(daan, offer.id)),
      received(await chat.connect(lotte, elsewhere.id)),
    ];
    const hoi = await send(sanne, offer.id, 'Hoi Daan');
    const hallo = await send(daan, offer.id, 'Hallo Sanne');
    await contentsOnce([sanneInbox, daanInbox], 2);
    for (const inbox of [sanneInbox, daanInbox]) {
      expect(inbox).toEqual([
        { firstName: 'Sanne', content: 'Hoi Daan', message: hoi },
        { firstName: 'Daan', content: 'Hallo Sanne', message: hallo },
      ]);
    }
    // Lotte's room only gets Lotte's offer's messages: the first she gets is this one.
    await send(daan, elsewhere.id, 'Hoi Lotte');
    expect(await contentsOnce([lotteInbox], 1)).toEqual([['Hoi Lotte']]);
  });

  it('stores before it broadcasts: every message is in the store when it arrives, and one that could not be stored is never shown', async () => {
    const offer = await chat.offer(sanne, daan);
    const daanSocket = await chat.connect(daan, offer.id, { replica: two });
    const inStoreOnArrival: Array<Promise<boolean>> = [];
    daanSocket.on('ReceiveMessage', (_name: string, _content: string, message: ChatMessage) => {
      inStoreOnArrival.push(chat.store.messages.findOne({ _id: `${offer.id}:${message.id}` }).then((doc) => doc !== null));
    });
    const inbox = received(daanSocket);

    // The store refuses the next insert: the member gets an error, nobody is shown anything.
    const messages = one.service.store.messages;
    const insertOne = messages.insertOne.bind(messages);
    messages.insertOne = (async () => {
      throw new Error('store unavailable');
    }) as typeof messages.insertOne;
    try {
      expect((await chat.send(sanne, { tradeOfferId: offer.id, content: 'Verloren' })).status).toBe(500);
    } finally {
      messages.insertOne = insertOne;
    }
    for (let i = 1; i <= 5; i++) await send(sanne, offer.id, `Bericht ${i}`, i % 2 ? one : two);
    expect(await contentsOnce([inbox], 5)).toEqual([['Bericht 1', 'Bericht 2', 'Bericht 3', 'Bericht 4', 'Bericht 5']]);
    expect(await Promise.all(inStoreOnArrival)).toEqual([true, true, true, true, true]);
    // The number the lost message had drawn stays unused; the others follow it.
    const stored = (await (await chat.messages(daan, offer.id)).json()) as ChatMessage[];
    expect(stored.map((m) => [m.id, m.content])).toEqual([
      [2, 'Bericht 1'],
      [3, 'Bericht 2'],
      [4, 'Bericht 3'],
      [5, 'Bericht 4'],
      [6, 'Bericht 5'],
    ]);
    expect(inbox.map((m) => m.message.id)).toEqual([2, 3, 4, 5, 6]);
  });

  it('shares rooms between replicas through Redis: each party gets every message, whichever replica the other is on and whichever stored it', async () => {
    const offer = await chat.offer(sanne, daan);
    const sanneInbox = received(await chat.connect(sanne, offer.id, { replica: one }));
    const daanInbox = received(await chat.connect(daan, offer.id, { replica: two }));
    await send(sanne, offer.id, 'Via één', one);
    await send(daan, offer.id, 'Via twee', two);
    await send(sanne, offer.id, 'Weer via twee', two);
    await send(daan, offer.id, 'Weer via één', one);
    const ordered = (inbox: typeof sanneInbox) => [...inbox].sort((a, b) => a.message.id - b.message.id).map((m) => m.content);
    await contentsOnce([sanneInbox, daanInbox], 4);
    expect(ordered(sanneInbox)).toEqual(['Via één', 'Via twee', 'Weer via twee', 'Weer via één']);
    expect(ordered(daanInbox)).toEqual(ordered(sanneInbox));
  });

  it('tells the room when the offer changes (OfferUpdated), and the chat closes when it is rejected', async () => {
    const offer = await chat.offer(sanne, daan);
    const socket = await chat.connect(sanne, offer.id, { replica: two });
    const updates: unknown[] = [];
    socket.on(CHAT_HUB.offerUpdated, (update: unknown) => updates.push(update));
    await offer.set('Rejected');
    await waitFor(() => updates.length === 1, 'OfferUpdated');
    expect(updates).toEqual([{ id: offer.id, status: 'Rejected', version: 2 }]);
    expect((await chat.send(daan, { tradeOfferId: offer.id, content: 'Jammer' })).status).toBe(409);
  });
});

describe('reconnecting', () => {
  /** Cuts the client's connection as a network would: the server sees the transport close. */
  const cut = (socket: Socket) => socket.io.engine.close();
  const reconnected = (socket: Socket) => new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const dropped = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

  it('recovers a client briefly cut off, on the same replica: its session back, every message it missed, none twice', async () => {
    const offer = await chat.offer(sanne, daan);
    const socket = await chat.connect(daan, offer.id, { reconnection: true, manager: { reconnectionDelay: 400, reconnectionDelayMax: 400 } });
    const inbox = received(socket);
    await send(sanne, offer.id, 'Een');
    await waitFor(() => inbox.length === 1, 'first message');
    const gone = dropped(socket);
    cut(socket);
    await gone;
    const back = reconnected(socket);
    for (const content of ['Twee', 'Drie', 'Vier']) await send(sanne, offer.id, content, two);
    await back;
    expect(socket.recovered).toBe(true);
    await send(sanne, offer.id, 'Vijf');
    expect(await contentsOnce([inbox], 5)).toEqual([['Een', 'Twee', 'Drie', 'Vier', 'Vijf']]);
  });

  it('recovers it on the other replica (the session is kept in Redis)', async () => {
    const offer = await chat.offer(sanne, daan);
    const socket = await chat.connect(daan, offer.id, { replica: one, reconnection: true, manager: { reconnectionDelay: 400, reconnectionDelayMax: 400 } });
    const inbox = received(socket);
    await send(sanne, offer.id, 'Een');
    await waitFor(() => inbox.length === 1, 'first message');
    // As a load balancer would send the reconnect elsewhere.
    socket.once('disconnect', () => {
      (socket.io as unknown as { uri: string }).uri = two.url;
    });
    cut(socket);
    const back = reconnected(socket);
    for (const content of ['Twee', 'Drie']) await send(sanne, offer.id, content, one);
    await back;
    expect(socket.recovered).toBe(true);
    expect((await two.service.hub.io.local.fetchSockets()).some((s) => s.id === socket.id)).toBe(true);
    await send(sanne, offer.id, 'Vier', one);
    expect(await contentsOnce([inbox], 4)).toEqual([['Een', 'Twee', 'Drie', 'Vier']]);
  });

  it('checks the token again on recovery: once revoked, the session is not recovered', async () => {
    const offer = await chat.offer(sanne, daan);
    const socket = await chat.connect(daan, offer.id, { reconnection: true, manager: { reconnectionDelay: 200, reconnectionDelayMax: 200, reconnectionAttempts: 1 } });
    const inbox = received(socket);
    const errors: Error[] = [];
    socket.on('connect_error', (err) => errors.push(err));
    await chat.redis.set(tokenVersionKey(daan.id), '1');
    try {
      const failed = new Promise<void>((resolve) => socket.io.once('reconnect_failed', () => resolve()));
      cut(socket);
      await send(sanne, offer.id, 'Niet voor een ingetrokken sessie');
      await failed;
      expect(socket.connected).toBe(false);
      expect(errors.length).toBeGreaterThan(0);
      expect(inbox).toEqual([]);
    } finally {
      await chat.redis.del(tokenVersionKey(daan.id));
    }
  });

  it('without a session to recover, first sends what the client missed after its lastMessageId', async () => {
    const offer = await chat.offer(sanne, daan);
    for (const content of ['Een', 'Twee', 'Drie']) await send(sanne, offer.id, content);
    const socket = await chat.connect(daan, offer.id, { replica: two, auth: { lastMessageId: 1 } });
    expect(socket.recovered).toBe(false);
    const inbox = received(socket);
    await waitFor(() => inbox.length === 2, 'the missed messages');
    await send(sanne, offer.id, 'Vier');
    expect(await contentsOnce([inbox], 3)).toEqual([['Twee', 'Drie', 'Vier']]);
    expect(inbox.map((m) => m.message.id)).toEqual([2, 3, 4]);
  });

  it('closes a socket when its token ends; the client comes back with a renewed token and recovers what it missed', async () => {
    const offer = await chat.offer(sanne, daan);
    const shortLived = await chat.issuer.sign({ sub: daan.id }, { expiresIn: '2s' });
    const socket = await chat.connect(shortLived, offer.id);
    const inbox = received(socket);
    // Recovery starts from the last broadcast a client got (socket.io's offset): one before the end.
    await send(sanne, offer.id, 'Voor het einde');
    await waitFor(() => inbox.length === 1, 'first message');
    // Closed like a lost connection (not a server disconnect, which would end the session).
    expect(['transport close', 'transport error']).toContain(await dropped(socket));
    await send(sanne, offer.id, 'Terwijl je weg was');
    // As the browser does: a fresh token, then connect again (recovery is attempted by itself).
    (socket.io.opts.query as Record<string, string>).access_token = daan.token;
    const back = reconnected(socket);
    socket.connect();
    await back;
    expect(socket.recovered).toBe(true);
    expect(await contentsOnce([inbox], 2)).toEqual([['Voor het einde', 'Terwijl je weg was']]);
  });
});
