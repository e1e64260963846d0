// Two chat replicas as real processes; one is killed (SIGKILL) while two members chat. The sender
// sees some sends fail and repeats them on the other replica; the reader's client reconnects there
// and reads what it missed. Every message the sender saw accepted reaches the reader.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_AVATAR, eventRegistry, type ChatMessage } from '@ruilplein/contracts';
import { freePort } from '@ruilplein/local';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, createEvent, ensureStream, publishEvent, type Bus, type Connection } from '@ruilplein/service-kit';
import { createTestIssuer, offerEvent, runMain, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ORIGIN, waitFor } from './chat.helpers.ts';

const main = join(import.meta.dirname, '..', 'src', 'main.ts');

interface Process {
  url: string;
  run: ReturnType<typeof runMain>;
}

let issuer: TestIssuer;
let adminBus: Bus;
let db: Connection;
const processes: Process[] = [];
const sockets: Socket[] = [];

async function startReplica(): Promise<Process> {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
  const port = await freePort();
  const run = runMain(main, {
    PORT: String(port),
    HOST: '127.0.0.1',
    MONGODB_URL: mongoUrl,
    NATS_URL: natsServiceUrls?.chat ?? natsUrl,
    REDIS_URL: redisUrl,
    AUTH_JWKS_URL: issuer.jwksUrl,
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'warn',
  });
  const url = `http://127.0.0.1:${port}`;
  const replica = { url, run };
  processes.push(replica);
  await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, `chat replica on ${port} ready`, 30_000);
  return replica;
}

beforeAll(async () => {
  const { mongoUrl, natsUrl } = testStores();
  issuer = await createTestIssuer();
  [adminBus, db] = await Promise.all([connectBus(natsUrl, 'chat-kill-test'), connectMongo(mongoUrl, 'chat')]);
  for (const stream of ['auth', 'trade']) await ensureStream(adminBus, stream);
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const { run } of processes) {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }
  await Promise.all([adminBus?.nc.drain(), issuer?.close(), db?.close()]);
});

async function member(firstName: string) {
  const id = new Types.ObjectId().toHexString();
  await publishEvent(adminBus, createEvent(eventRegistry, 'auth.user.registered', { id, version: 1, firstName, lastName: 'Test', profilePicture: DEFAULT_AVATAR, roles: ['Gebruiker'], activated: true }));
  await waitFor(async () => (await db.collection('members').findOne({ _id: id as never })) !== null, `${firstName} projected`);
  return { id, token: await issuer.sign({ sub: id }) };
}

it('loses no message the sender saw accepted when a replica is killed mid-chat; the client carries on at the other replica', async () => {
  const [first, second] = [await startReplica(), await startReplica()];
  const [sanne, daan] = [await member('Sanne'), await member('Daan')];
  const offer = offerEvent({ id: 2_100_000_000 + Math.floor(Math.random() * 1_000_000_000), senderId: sanne.id, receiverId: daan.id });

  await publishEvent(adminBus, createEvent(eventRegistry, 'trade.offer.created', offer));
  await waitFor(async () => (await db.collection('conversations').findOne({ _id: String(offer.id) as never })) !== null, 'conversation opened');

  // Daan's client, as the browser's: on a lost connection it connects again (here the balancer
  // sends it to the surviving replica) and, when its session was not recovered, reads the messages.
  const shown = new Map<number, string>();
  const socket = io(first.url, {
    path: '/chathub',
    transports: ['websocket'],
    query: { offerId: String(offer.id), access_token: daan.token },
    extraHeaders: { origin: ORIGIN },
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  socket.on('ReceiveMessage', (_name: string, content: string, message: ChatMessage) => shown.set(message.id, content));
  let recoveredAfterKill: boolean | undefined;
  // Where the manager connects next (socket.io-client keeps it private).
  const manager = socket.io as unknown as { uri: string };
  socket.on('connect', async () => {
    if (manager.uri !== second.url) return;
    recoveredAfterKill = socket.recovered;
    if (socket.recovered) return;
    const res = await fetch(`${second.url}/api/chat/${offer.id}`, { headers: { authorization: `Bearer ${daan.token}` } });
    for (const message of (await res.json()) as ChatMessage[]) shown.set(message.id, message.content);
  });
  socket.on('disconnect', () => {
    manager.uri = second.url;
    setTimeout(() => socket.connect(), 200);
  });
  await waitFor(() => socket.connected, 'daan connected to the first replica');

  // Sanne sends to the first replica until it fails, then to the second; a failed send is repeated.
  const accepted = new Map<number, string>();
  let target = first.url;
  // 25 and a few repeats: below the send limit of 30 a minute.
  for (let i = 1; i <= 25; i++) {
    if (i === 10) first.run.child.kill('SIGKILL');
    const content = `Bericht ${i}`;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 5) throw new Error(`${content} was never accepted`);
      const res = await fetch(`${target}/api/chat/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sanne.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tradeOfferId: offer.id, content }),
        signal: AbortSignal.timeout(5000),
      }).catch(() => undefined);
      if (res?.status === 201) {
        const message = (await res.json()) as ChatMessage;
        accepted.set(message.id, message.content);
        break;
      }
      target = second.url;
    }
    await sleep(20);
  }
  await first.run.exited;
  expect(first.run.child.signalCode).toBe('SIGKILL');
  await waitFor(() => [...accepted.keys()].every((id) => shown.has(id)), 'every accepted message shown to daan', 15_000);
  for (const [id, content] of accepted) expect(shown.get(id)).toBe(content);
  expect(accepted.size).toBe(25);
  // The killed replica could not keep the session: the client read what it missed instead.
  expect(recoveredAfterKill).toBe(false);
  expect(socket.connected).toBe(true);
}, 90_000);
