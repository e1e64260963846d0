// The chat service over real HTTP and websockets on the run's stores, one or more replicas sharing
// one database and the hub's Redis stream, with members and offers made the way production makes
// them (auth's and trade's events).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_AVATAR, type ChatMessage, type OfferEvent, type OfferStatus } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, originPolicy, type Bus, type Connection } from '@ruilplein/service-kit';
import { connectTestStores, offerEvent, silentLogger, waitFor, type TestIssuer } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { createChatService, type ChatService } from '../src/app.ts';
import type { ChatStore } from '../src/conversations/model.ts';

export const logger = silentLogger();
/** The platform's origin in these tests (PUBLIC_URL). */
export const ORIGIN = 'http://ruilplein.test';

export interface TestMember {
  id: string;
  firstName: string;
  token: string;
  /** Announces a new first name (the next version), as auth would. */
  rename(firstName: string): Promise<void>;
  /** Announces the deletion of the account. */
  remove(): Promise<void>;
}

export interface TestOffer {
  id: number;
  version: number;
  /** Announces the offer in a new status (the next version), as trade would, and waits until the chat applied it. */
  set(status: OfferStatus): Promise<void>;
  /** The event of the current state (to publish again: a redelivery). */
  event(): OfferEvent;
}

export interface Replica {
  url: string;
  service: ChatService;
  /** Stops it gracefully (sockets closed, sessions kept for recovery). */
  stop(): Promise<void>;
}

export interface ChatHarness {
  replicas: Replica[];
  /** The first replica's address. */
  url: string;
  db: Connection;
  store: ChatStore;
  adminBus: Bus;
  redis: RedisClientType;
  issuer: TestIssuer;
  hubStream: string;
  member(firstName?: string): Promise<TestMember>;
  offer(sender: TestMember, receiver: TestMember): Promise<TestOffer>;
  /** POST /api/chat/send as `member`. */
  send(member: TestMember | undefined, body: unknown, replica?: Replica): Promise<Response>;
  /** GET /api/chat/{offerId} as `member`. */
  messages(member: TestMember | undefined, offerId: number | string, query?: string, replica?: Replica): Promise<Response>;
  /** A socket.io client on the hub, connected (or rejected with the connect error). */
  connect(member: TestMember | string | undefined, offerId: number | string | undefined, options?: ConnectOptions): Promise<Socket>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  replica?: Replica;
  origin?: string | null;
  auth?: Record<string, unknown>;
  /** socket.io-client's own reconnection (off unless asked). */
  reconnection?: boolean;
  manager?: Partial<ManagerOptions & SocketOptions>;
}

/** Offer numbers of their own: other test files announce offers on the same stream. */
let nextOfferId = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);

const SUBJECT: Record<OfferStatus, 'trade.offer.created' | 'trade.offer.accepted' | 'trade.offer.rejected' | 'trade.offer.cancelled' | 'trade.offer.completed'> = {
  Pending: 'trade.offer.created',
  Accepted: 'trade.offer.accepted',
  Rejected: 'trade.offer.rejected',
  Cancelled: 'trade.offer.cancelled',
  Completed: 'trade.offer.completed',
};

export const subjectOf = (status: OfferStatus) => SUBJECT[status];


export { waitFor } from '@ruilplein/service-kit/testing';

/** Every ReceiveMessage a socket got, in order. */
export function received(socket: Socket): Array<{ firstName: string; content: string; message: ChatMessage }> {
  const seen: Array<{ firstName: string; content: string; message: ChatMessage }> = [];
  socket.on('ReceiveMessage', (firstName: string, content: string, message: ChatMessage) => seen.push({ firstName, content, message }));
  return seen;
}

async function serve(service: ChatService): Promise<{ url: string; close(): Promise<void> }> {
  const upgraded = new Set<Duplex>();
  const server = createServer(service.app);
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    service.onUpgrade!(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await closed;
    },
  };
}

export async function startChat(options: { replicas?: number; recoveryMs?: number; revocationSweepMs?: number } = {}): Promise<ChatHarness> {
  const { natsUrl, natsServiceUrls, redisUrl } = testStores();
  const stores = await connectTestStores({
    service: 'chat',
    streams: ['auth', 'trade'],
    redis: { disableOfflineQueue: true },
    memberDefaults: () => ({ lastName: 'Test', profilePicture: DEFAULT_AVATAR }),
  });
  const { db, adminBus, redis, issuer } = stores;
  const hubStream = `chat:test:${randomUUID().slice(0, 8)}`;
  const cleanups: Array<() => Promise<unknown>> = [];

  async function startReplica(i: number): Promise<Replica> {
    const adapterRedis: RedisClientType = createClient({ url: redisUrl });
    adapterRedis.on('error', () => {});
    const bus = await connectBus(natsServiceUrls?.chat ?? natsUrl, `chat-test-${i}`);
    await adapterRedis.connect();
    const service = await createChatService({
      db,
      bus,
      logger,
      verifyToken: issuer.verifyToken,
      redis,
      adapterRedis,
      allowOrigin: originPolicy({ publicUrl: ORIGIN }),
      hubStream,
      recoveryMs: options.recoveryMs,
      revocationSweepMs: options.revocationSweepMs,
    });
    const served = await serve(service);
    let stopped: Promise<void> | undefined;
    const replica: Replica = {
      url: served.url,
      service,
      stop: () =>
        (stopped ??= (async () => {
          await served.close();
          for (const worker of service.workers ?? []) await worker.stop();
          await bus.nc.drain();
          await adapterRedis.quit();
        })()),
    };
    cleanups.push(replica.stop);
    return replica;
  }

  const replicas: Replica[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) replicas.push(await startReplica(i));
  const store = replicas[0]!.service.store;
  const sockets: Socket[] = [];

  const call = (replica: Replica, path: string, member: TestMember | undefined, init: RequestInit = {}) =>
    fetch(`${replica.url}${path}`, { ...init, headers: { ...(member && { authorization: `Bearer ${member.token}` }), ...(init.body !== undefined && { 'content-type': 'application/json' }) } });

  const harness: ChatHarness = {
    replicas,
    url: replicas[0]!.url,
    db,
    store,
    adminBus,
    redis,
    issuer,
    hubStream,
    async member(firstName = 'Lid') {
      const announced = await stores.member({ firstName });
      const member: TestMember = {
        id: announced.id,
        firstName,
        token: announced.token,
        async rename(name) {
          member.firstName = name;
          await announced.update({ firstName: name });
        },
        remove: announced.remove,
      };
      return member;
    },
    async offer(sender, receiver) {
      let state = offerEvent({ id: nextOfferId++, senderId: sender.id, receiverId: receiver.id });
      const projected = () => waitFor(async () => (await store.conversations.findOne({ _id: String(state.id) }))?.version === state.version, `offer ${state.id} at version ${state.version}`);
      await stores.publish('trade.offer.created', state);
      await projected();
      const offer: TestOffer = {
        id: state.id,
        version: 1,
        async set(status) {
          state = { ...state, status, version: state.version + 1, at: new Date().toISOString() };
          offer.version = state.version;
          await stores.publish(subjectOf(status), state);
          await projected();
        },
        event: () => state,
      };
      return offer;
    },
    send: (member, body, replica = replicas[0]!) => call(replica, '/api/chat/send', member, { method: 'POST', body: JSON.stringify(body) }),
    messages: (member, offerId, query = '', replica = replicas[0]!) => call(replica, `/api/chat/${offerId}${query}`, member),
    connect(member, offerId, opts = {}) {
      const token = typeof member === 'string' ? member : member?.token;
      const query: Record<string, string> = {};
      if (offerId !== undefined) query.offerId = String(offerId);
      if (token) query.access_token = token;
      const origin = opts.origin === undefined ? ORIGIN : opts.origin;
      const socket = io((opts.replica ?? replicas[0]!).url, {
        path: '/chathub',
        transports: ['websocket'],
        query,
        auth: opts.auth ?? {},
        forceNew: true,
        reconnection: opts.reconnection ?? false,
        reconnectionDelay: 50,
        reconnectionDelayMax: 200,
        ...(origin !== null && { extraHeaders: { origin } }),
        ...opts.manager,
      });
      sockets.push(socket);
      return new Promise<Socket>((resolve, reject) => {
        const failed = (err: Error) => {
          socket.close();
          reject(err);
        };
        socket.once('connect_error', failed);
        socket.once('connect', () => {
          socket.off('connect_error', failed);
          resolve(socket);
        });
      });
    },
    async close() {
      for (const socket of sockets) socket.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
      const sessions = await redis.keys(`${hubStream}:session:*`);
      await redis.del([hubStream, ...sessions]);
      await stores.close();
    },
  };
  return harness;
}
