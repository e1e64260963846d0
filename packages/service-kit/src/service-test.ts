// One harness for the services' integration tests: a service over real HTTP on the run's stores (a
// database of its own, its own NATS user, the shared Redis), a token issuer, members made the way
// production makes them (auth's events), and every event it publishes collected. What is a
// service's own (its stand-ins, its payloads, its calls) stays in its test folder.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventRegistry, legacySuspensionEvents, type EventEnvelope, type OfferEvent, type Role, type UserEvent } from '@ruilplein/contracts';
import { mongo } from 'mongoose';
import { pino } from 'pino';
import { createClient, type RedisClientOptions, type RedisClientType } from 'redis';
import type { z } from 'zod';
import type { TokenVerifier } from './auth.ts';
import { now } from './clock.ts';
import type { Logger } from './logger.ts';
import { connectMongo, type Connection } from './mongo.ts';
import { connectBus, createEvent, ensureStream, publishEvent, type Bus } from './nats.ts';
import type { ServiceParts } from './run.ts';
import { createTestIssuer, listen, type TestClaims, type TestIssuer } from './test-http.ts';

export const silentLogger = (): Logger => pino({ level: 'silent' });

/** An answer's body: tests check its shape themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** Waits (also outside a test: hooks) until `check` holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  // A monotonic deadline: a test may move the platform clock meanwhile.
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`not in time: ${what}`);
    await sleep(20);
  }
}

export type CallInit = Omit<RequestInit, 'body'> & {
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as an HTML form (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  body?: RequestInit['body'];
};

/** A request to `url` + `path` as the holder of `token`. */
export function call(url: string, path: string, init: CallInit = {}): Promise<Response> {
  const { token, json, form, ...rest } = init;
  return fetch(`${url}${path}`, {
    ...rest,
    ...(json !== undefined && { body: JSON.stringify(json) }),
    ...(form && { body: new URLSearchParams(form) }),
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(json !== undefined && { 'content-type': 'application/json' }),
      ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      ...(rest.headers as Record<string, string> | undefined),
    },
  });
}

/** Status, body (parsed when it is JSON, the text otherwise) and headers of a call. */
export async function send(url: string, path: string, init: CallInit = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await call(url, path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML, plain text or empty
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

type EventType = keyof typeof eventRegistry & string;
type MemberState = Partial<Omit<UserEvent, 'id' | 'version'>>;

export interface TestMember {
  id: string;
  token: string;
  /** The member as auth last announced it. */
  readonly state: UserEvent;
  /** Announces a new state of this member (the next version), as auth would; a field set to undefined is cleared. */
  update(fields: MemberState): Promise<void>;
  /** Announces the deletion of the account. */
  remove(): Promise<void>;
}

export interface TestStoresOptions {
  /** The service under test: its database's prefix, its NATS user. */
  service: string;
  /** Streams made sure of on the privileged user; those in `purge` are emptied too (the run's other files publish there). */
  streams?: readonly string[];
  purge?: readonly string[];
  /** Options of the service's Redis client. */
  redis?: Omit<RedisClientOptions, 'url'>;
  /** A member's fields unless the test names them (after `firstName: 'Lid'`, a last name of its own, `roles: ['Gebruiker']`, activated). */
  memberDefaults?: (id: string) => MemberState;
  /** The collection the service projects members into, where `member()` waits for them. */
  membersCollection?: string;
}

export interface TestStores {
  db: Connection;
  /** As the service's own NATS user (rights from the contracts' registry). */
  bus: Bus;
  /** The privileged NATS user: publishes other services' events, reads the service's stream. */
  adminBus: Bus;
  redis: RedisClientType;
  issuer: TestIssuer;
  logger: Logger;
  /** Publishes an event as its owner would (through the privileged user); answers it. */
  publish<S extends EventType>(type: S, payload: z.input<(typeof eventRegistry)[S]>): Promise<EventEnvelope<z.output<(typeof eventRegistry)[S]>>>;
  /** Waits until the document `id` of `collection` is at `version` (a projection applied an event). */
  projected(collection: string, id: string, version: number): Promise<void>;
  /** A member announced by auth (auth.user.registered) and projected by the service, with a token (of `tokenRoles` when given). */
  member(fields?: MemberState, options?: { tokenRoles?: Role[]; claims?: Omit<TestClaims, 'sub' | 'roles'> }): Promise<TestMember>;
  /** Runs at `close()` before the stores close, the last registered first. */
  onClose(cleanup: () => Promise<unknown>): void;
  /** Runs the cleanups, drops the database and closes every connection. */
  close(): Promise<void>;
}

/** Lazily: the run's store URLs come from vitest, which a bench that imports this entry does not run under. */
const storeUrls = async () => (await import('./test-stores.ts')).testStores();

/** The run's stores for one service's test file: a fresh database, its NATS user and the privileged one, Redis, a token issuer. */
export async function connectTestStores(options: TestStoresOptions): Promise<TestStores> {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = await storeUrls();
  const redis: RedisClientType = createClient({ ...options.redis, url: redisUrl }) as RedisClientType;
  const [db, bus, adminBus, issuer] = await Promise.all([
    connectMongo(mongoUrl, `${options.service}-${randomUUID().slice(0, 8)}`),
    connectBus(natsServiceUrls?.[options.service] ?? natsUrl, `${options.service}-test`),
    connectBus(natsUrl, `${options.service}-test-admin`),
    createTestIssuer(),
    redis.connect(),
  ]);
  for (const stream of options.streams ?? []) await ensureStream(adminBus, stream);
  for (const stream of options.purge ?? []) await adminBus.jsm.streams.purge(stream);

  const cleanups: Array<() => Promise<unknown>> = [];
  const projected = (collection: string, id: string, version: number) =>
    waitFor(async () => (await db.collection<{ _id: string; version: number }>(collection).findOne({ _id: id }))?.version === version, `${collection} ${id} at version ${version}`);
  const publish: TestStores['publish'] = async (type, payload) => {
    const event = createEvent(eventRegistry, type, payload);
    await publishEvent(adminBus, event);
    return event;
  };
  const membersAt = (id: string, version: number) => projected(options.membersCollection ?? 'members', id, version);

  return {
    db,
    bus,
    adminBus,
    redis,
    issuer,
    logger: silentLogger(),
    publish,
    projected,
    async member(fields = {}, memberOptions = {}) {
      const id = new mongo.ObjectId().toHexString();
      let state: UserEvent = { id, version: 1, firstName: 'Lid', lastName: id.slice(-4), profilePicture: '', roles: ['Gebruiker'], activated: true, ...options.memberDefaults?.(id), ...fields };
      await publish('auth.user.registered', state);
      await membersAt(id, 1);
      return {
        id,
        token: await issuer.sign({ ...memberOptions.claims, sub: id, roles: memberOptions.tokenRoles ?? (state.roles as Role[]) }),
        get state() {
          return state;
        },
        async update(change) {
          const next: Record<string, unknown> = { ...state, ...change, version: state.version + 1 };
          for (const [key, value] of Object.entries(change)) if (value === undefined) delete next[key];
          state = next as UserEvent;
          await publish('auth.user.updated', state);
          await membersAt(id, state.version);
        },
        async remove() {
          state = { ...state, version: state.version + 1 };
          await publish('auth.user.deleted', { id, version: state.version });
          await membersAt(id, state.version);
        },
      };
    },
    onClose(cleanup) {
      cleanups.push(cleanup);
    },
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup();
      await db.dropDatabase();
      await Promise.all([db.close(), bus.nc.drain(), adminBus.nc.drain(), issuer.close(), redis.quit()]);
    },
  };
}

/** What a service under test is made from: the stores' connections and the issuer's verifier. */
export interface ServiceTestDeps {
  db: Connection;
  bus: Bus;
  redis: RedisClientType;
  logger: Logger;
  verifyToken: TokenVerifier;
}

export interface ServiceTestOptions<P extends ServiceParts> extends Omit<TestStoresOptions, 'purge'> {
  /** Makes the service (its app and workers) from the test's stores. */
  create(deps: ServiceTestDeps): Promise<P>;
  /** Streams to empty before the start (default: every one of `streams`). */
  purge?: readonly string[];
}

export interface ServiceTest<P extends ServiceParts> extends TestStores {
  /** Where the service listens (changes on `restart()`). */
  url: string;
  /** The running service's parts. */
  service: P;
  /** Every `<service>.>` event published since the start, in order. */
  events: EventEnvelope[];
  /** Stops the service and starts it again on the same stores. */
  restart(): Promise<void>;
}

/**
 * Starts a service for a test file: the stores (connectTestStores), its streams made sure of and
 * emptied, a reader of its own stream, then the service over real HTTP on a free port.
 */
export async function startServiceForTest<P extends ServiceParts>(options: ServiceTestOptions<P>): Promise<ServiceTest<P>> {
  const streams = [...new Set([...(options.streams ?? []), options.service])];
  const stores = await connectTestStores({ ...options, streams, purge: options.purge ?? streams });
  const { db, bus, redis, issuer, adminBus, logger } = stores;

  const events: EventEnvelope[] = [];
  const consumer = await adminBus.js.consumers.get(options.service, { filterSubjects: [`${options.service}.>`] });
  const messages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) events.push(msg.json<EventEnvelope>());
  })();

  const start = async () => {
    const service = await options.create({ db, bus, redis, logger, verifyToken: issuer.verifyToken });
    return { service, server: await listen(service.app) };
  };
  let running = await start();
  const stop = async () => {
    await running.server.close();
    for (const worker of running.service.workers ?? []) await worker.stop();
  };
  // First registered, so it runs last: the cleanups a test adds may still need the service's stores.
  stores.onClose(async () => {
    await messages.close();
    await reading;
  });

  const harness: ServiceTest<P> = {
    ...stores,
    url: running.server.url,
    service: running.service,
    events,
    async restart() {
      await stop();
      running = await start();
      harness.url = running.server.url;
      harness.service = running.service;
    },
    async close() {
      await stop();
      await stores.close();
    },
  };
  return harness;
}

/**
 * moderation's suspension events under today's names and those before the rename, by the name a
 * test shows: the consumers in listing, trade and auth must treat each alike.
 */
export function suspensionEvents(at: () => string) {
  return {
    suspensions: {
      'moderation.user.suspended (ban)': (userId: string, version: number) =>
        createEvent(eventRegistry, 'moderation.user.suspended', { userId, version, reason: 'ban', endsAt: null, at: at() }),
      'moderation.user.suspended (warnings)': (userId: string, version: number) =>
        createEvent(eventRegistry, 'moderation.user.suspended', { userId, version, reason: 'warnings', endsAt: new Date(Date.parse(at()) + 86_400_000).toISOString(), at: at() }),
      'moderation.user.banned (before the rename)': (userId: string, version: number) =>
        createEvent(legacySuspensionEvents, 'moderation.user.banned', { userId, version, reason: 'ban', unblockDate: null, at: at() }),
      'moderation.user.blocked (before the rename)': (userId: string, version: number) =>
        createEvent(legacySuspensionEvents, 'moderation.user.blocked', { userId, version, reason: 'warnings', unblockDate: null, at: at() }),
    },
    ends: {
      'moderation.user.suspension-ended': (userId: string, version: number) => createEvent(eventRegistry, 'moderation.user.suspension-ended', { userId, version, at: at() }),
      'moderation.user.unblocked (before the rename)': (userId: string, version: number) =>
        createEvent(legacySuspensionEvents, 'moderation.user.unblocked', { userId, version, at: at() }),
    },
  };
}

/** Publishes `event` (privileged) and waits until the durable consumer `durable` has handled it (its claim is done), whatever it did. */
export async function handledBy(stores: Pick<TestStores, 'adminBus' | 'db'>, durable: string, event: EventEnvelope): Promise<void> {
  await publishEvent(stores.adminBus, event);
  const claims = stores.db.collection<{ _id: string; state: string }>('consumed_events');
  await waitFor(async () => (await claims.findOne({ _id: `${durable}:${event.id}` }))?.state === 'done', `${event.type} handled by ${durable}`);
}

/**
 * A trade offer's state as trade announces it (trade.offer.*): a new Pending offer on a listing of
 * its own, under a number unlikely to meet another test's, unless `over` says otherwise.
 */
export function offerEvent(over: Partial<OfferEvent> & Pick<OfferEvent, 'senderId' | 'receiverId'>): OfferEvent {
  const at = now().toISOString();
  return {
    id: 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000),
    version: 1,
    listingId: new mongo.ObjectId().toHexString(),
    listingIds: [],
    status: 'Pending',
    senderConfirmed: false,
    receiverConfirmed: false,
    createdAt: at,
    at,
    ...over,
  };
}
