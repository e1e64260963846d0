// The live notification hub on real stores: two replicas sharing rooms through the run's Redis,
// each over real HTTP and websockets. Who may connect (a real HTTP refusal otherwise), that every
// tab of a member gets each event once whichever replica sent it, the count on connect, and that
// a revoked or expired token does not keep a socket open. The hub's unread count comes from the
// service's store in production; here a table stands in for it (what the hub does with it is tested).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { NOTIFICATION_HUB, tokenVersionKey, type Notification } from '@ruilplein/contracts';
import { MESSAGES, originPolicy, revokeTokenVersion } from '@ruilplein/service-kit';
import { testStores } from '@ruilplein/service-kit/test-stores';
import { connectTestStores, upgradeRefusal, waitFor, type TestStores } from '@ruilplein/service-kit/testing';
import { mongo } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationHub, type NotificationHub } from '../src/live/hub.ts';

const ORIGIN = 'http://ruilplein.test';
const NOT_LOGGED_IN = 'Je bent niet ingelogd of je sessie is verlopen.';

interface Replica {
  url: string;
  hub: NotificationHub;
  stop(): Promise<void>;
}

interface Member {
  id: string;
  token: string;
}

let stores: TestStores;
let streamName: string;
let one: Replica;
let two: Replica;
/** The stand-in for the store's unread counts; a member with a gate answers only when the test opens it. */
const unread = new Map<string, number>();
const gates = new Map<string, Promise<number>>();
const sockets: Socket[] = [];

async function startReplica(): Promise<Replica> {
  const adapterRedis: RedisClientType = createClient({ url: testStores().redisUrl });
  adapterRedis.on('error', () => {});
  await adapterRedis.connect();
  const hub = createNotificationHub({
    logger: stores.logger,
    verifyToken: stores.issuer.verifyToken,
    redis: stores.redis,
    adapterRedis,
    allowOrigin: originPolicy({ publicUrl: ORIGIN }),
    streamName,
    unreadCount: async (userId) => gates.get(userId) ?? unread.get(userId) ?? 0,
  });
  const upgraded = new Set<Duplex>();
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    hub.onUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hub,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await closed;
      await hub.stop();
      await adapterRedis.quit();
    },
  };
}

beforeAll(async () => {
  stores = await connectTestStores({ service: 'notification', redis: { disableOfflineQueue: true } });
  streamName = `notification:test:${randomUUID().slice(0, 8)}`;
  one = await startReplica();
  two = await startReplica();
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await one?.stop();
  await two?.stop();
  if (stores) {
    const sessions = await stores.redis.keys(`${streamName}:session:*`);
    await stores.redis.del([streamName, ...sessions]);
    await stores.close();
  }
});

async function member(): Promise<Member> {
  const id = new mongo.ObjectId().toHexString();
  return { id, token: await stores.issuer.sign({ sub: id }) };
}

/** What a socket received, in order. */
interface Inbox {
  notifications: Notification[];
  counts: number[];
}

/**
 * A socket.io client on a replica's hub, connected (or rejected with the connect error), with what
 * it receives recorded from before it connects (the count on connect comes at once).
 */
async function connect(token: string | undefined, options: { replica?: Replica; origin?: string | null; headers?: Record<string, string> } = {}) {
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  const socket = io((options.replica ?? one).url, {
    path: NOTIFICATION_HUB.path,
    transports: [...NOTIFICATION_HUB.transports],
    query: token ? { [NOTIFICATION_HUB.tokenParam]: token } : {},
    forceNew: true,
    reconnection: false,
    extraHeaders: { ...(origin !== null && { origin }), ...options.headers },
  });
  sockets.push(socket);
  const got: Inbox = { notifications: [], counts: [] };
  socket.on(NOTIFICATION_HUB.notification, (n: Notification) => got.notifications.push(n));
  socket.on(NOTIFICATION_HUB.unreadCount, (n: number) => got.counts.push(n));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
    socket.once('connect', () => resolve());
  });
  return { socket, got };
}

/** A tab of the member's on a replica. */
const tab = (m: Member, replica: Replica = one) => connect(m.token, { replica });

const notification = (title: string): Notification => ({
  id: `${new mongo.ObjectId().toHexString()}:${Date.now().toString(36).padStart(9, '0')}:test-${title.length}`,
  kind: 'offer-received',
  title,
  body: 'Bekijk het aanbod.',
  link: '/dashboard/tradeoffer/12',
  createdAt: new Date().toISOString(),
  readAt: null,
});

const hubPath = (query: Record<string, string>) => `${NOTIFICATION_HUB.path}/?EIO=4&transport=websocket&${new URLSearchParams(query)}`;

describe('handshake', () => {
  it('refuses with a real HTTP answer: no, a bad, an expired or a revoked token 401; another site 403; another path 404', async () => {
    const daan = await member();
    const expired = await stores.issuer.sign({ sub: daan.id }, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const cases: Array<[string, Record<string, string>, number, string]> = [
      [hubPath({}), { origin: ORIGIN }, 401, NOT_LOGGED_IN],
      [hubPath({ access_token: await stores.issuer.signWithForeignKey({ sub: daan.id }) }), { origin: ORIGIN }, 401, NOT_LOGGED_IN],
      [hubPath({ access_token: stores.issuer.unsigned({ sub: daan.id }) }), { origin: ORIGIN }, 401, NOT_LOGGED_IN],
      [hubPath({ access_token: expired }), { origin: ORIGIN }, 401, NOT_LOGGED_IN],
      [hubPath({ access_token: daan.token }), { origin: 'https://elders.example' }, 403, 'Deze verbinding kan alleen vanaf Ruilplein zelf worden geopend.'],
      [hubPath({ access_token: daan.token }), { origin: 'null' }, 403, 'Deze verbinding kan alleen vanaf Ruilplein zelf worden geopend.'],
      [`/chathub/?EIO=4&transport=websocket&access_token=${daan.token}`, { origin: ORIGIN }, 404, MESSAGES.notFound],
    ];
    for (const [path, headers, status, message] of cases) {
      const res = await upgradeRefusal(`${one.url}${path}`, headers);
      expect(res.status, path).toBe(status);
      expect(JSON.parse(res.body), path).toEqual({ message });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // Revoked: auth raised the member's token version (logout, ban) after this token was issued.
    await stores.redis.set(tokenVersionKey(daan.id), '1');
    const res = await upgradeRefusal(`${one.url}${hubPath({ access_token: daan.token })}`, { origin: ORIGIN });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    await expect(connect(daan.token)).rejects.toThrow();
    await expect(connect(undefined)).rejects.toThrow();
    await stores.redis.del(tokenVersionKey(daan.id));
  });

  it('lets a member in from the platform or from no page at all, with the token in the query or the Authorization header, and sends the unread count at once', async () => {
    const sanne = await member();
    unread.set(sanne.id, 3);
    const tabs = [
      await tab(sanne),
      await tab(sanne, two),
      await connect(undefined, { headers: { authorization: `Bearer ${sanne.token}` } }),
      await connect(sanne.token, { origin: null }),
    ];
    await waitFor(() => tabs.every((t) => t.got.counts.length === 1), 'the count on connect');
    expect(tabs.map((t) => t.got.counts)).toEqual([[3], [3], [3], [3]]);
    one.hub.push(sanne.id, notification('Nieuw ruilaanbod van Daan'));
    await waitFor(() => tabs.every((t) => t.got.notifications.length === 1), 'the push on every tab');
  });
});

describe('events', () => {
  it("sends each Notification and UnreadCount to every tab of the member once, on both replicas whichever sends it, and to nobody else", async () => {
    const [sanne, daan] = [await member(), await member()];
    const tabs = [await tab(sanne, one), await tab(sanne, one), await tab(sanne, two)];
    const other = await tab(daan, two);
    await waitFor(() => [...tabs, other].every((t) => t.got.counts.length === 1), 'the counts on connect');
    const first = notification('Nieuw ruilaanbod van Daan');
    const second = notification('Daan heeft je ruilaanbod geaccepteerd');
    one.hub.push(sanne.id, first);
    one.hub.count(sanne.id, 1);
    two.hub.push(sanne.id, second);
    two.hub.count(sanne.id, 2);
    // A last event to Daan after them: once it is there, anything wrongly sent to him would be too.
    const last = notification('Voor Daan');
    await waitFor(() => tabs.every((t) => t.got.notifications.length === 2 && t.got.counts.length === 3), 'both events on every tab');
    one.hub.push(daan.id, last);
    two.hub.push(sanne.id, notification('Sluitstuk'));
    await waitFor(() => other.got.notifications.length === 1 && tabs.every((t) => t.got.notifications.length === 3), 'the last events');
    for (const t of tabs) {
      const [a, b, c] = t.got.notifications;
      // Through one replica each event keeps its order; across two, either may come first.
      expect([a, b].sort((x, y) => x!.title.localeCompare(y!.title))).toEqual([second, first]);
      expect(c!.title).toBe('Sluitstuk');
      expect(t.got.counts[0]).toBe(0);
      expect(t.got.counts.slice(1).sort()).toEqual([1, 2]);
    }
    expect(other.got.notifications).toEqual([last]);
    expect(other.got.counts).toEqual([0]);
  });

  it('does not send a count read on connect when a newer one reached the socket meanwhile', async () => {
    const emma = await member();
    let open: (n: number) => void = () => {};
    gates.set(emma.id, new Promise<number>((resolve) => (open = resolve)));
    const { got } = await tab(emma);
    // The count changed while the connect's count was still being read: the newer one comes first.
    one.hub.count(emma.id, 5);
    await waitFor(() => got.counts.length === 1, 'the pushed count');
    open(4);
    const later = await tab(emma, two);
    gates.delete(emma.id);
    // The second tab's count (read after the gate opened) is a sign the first tab's read is done.
    await waitFor(() => later.got.counts.length === 1, "the second tab's count");
    one.hub.count(emma.id, 6);
    await waitFor(() => got.counts.length === 2, 'the next count');
    expect(got.counts).toEqual([5, 6]);
  });

  it("knows a member's id whatever its case, and its tabs on both replicas as one room", async () => {
    const lotte = await member();
    const tabs = [await tab(lotte, one), await tab(lotte, two)];
    two.hub.push(lotte.id.toUpperCase(), notification('Hoofdletters'));
    await waitFor(() => tabs.every((t) => t.got.notifications.length === 1), 'the push');
    const rooms = await one.hub.io.in(`member:${lotte.id}`).fetchSockets();
    expect(rooms.length).toBe(2);
  });
});

describe('a socket outlives its upgrade check', () => {
  it("closes a revoked member's sockets on every replica at once, as a server disconnect; other members' stay open", async () => {
    const [lotte, bram] = [await member(), await member()];
    const tabs = [await tab(lotte, one), await tab(lotte, two)];
    const bystander = await tab(bram, one);
    const gone = tabs.map((t) => new Promise<string>((resolve) => t.socket.once('disconnect', resolve)));
    await revokeTokenVersion(stores.redis, lotte.id);
    expect(await Promise.all(gone)).toEqual(['io server disconnect', 'io server disconnect']);
    one.hub.push(lotte.id, notification('Niet meer voor jou'));
    one.hub.push(bram.id, notification('Voor Bram'));
    await waitFor(() => bystander.got.notifications.length === 1, "Bram's push");
    expect(tabs.map((t) => t.got.notifications)).toEqual([[], []]);
    expect(bystander.socket.connected).toBe(true);
    await expect(connect(lotte.token)).rejects.toThrow();
    await stores.redis.del(tokenVersionKey(lotte.id));
  });

  it('closes a socket when its token ends (as a lost connection: the client comes back with a renewed token)', async () => {
    const noor = await member();
    const shortLived = await stores.issuer.sign({ sub: noor.id }, { expiresIn: '2s' });
    const { socket } = await connect(shortLived);
    const reason = await new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect(['transport close', 'transport error']).toContain(reason);
  });
});
