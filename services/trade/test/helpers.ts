// The trade service over real HTTP on the run's stores, with members made the way production makes
// them (auth's events) and a stand-in for the listing service's inventory query
// (`rpc.listing.inventory.get` over NATS request/reply, as the listing service answers it).
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_CRATE,
  eventRegistry,
  inventoryQueries,
  type CreateOfferRequest,
  type EventEnvelope,
  type InventoryItem,
  type Role,
  type UserEvent,
} from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, createEvent, ensureStream, notFound, publishEvent, serveQuery, type Bus, type Connection, type ServiceParts, type Worker } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import type { z } from 'zod';
import { createClient, type RedisClientType } from 'redis';
import { expect } from 'vitest';
import { createTradeService, type TradeDeps } from '../src/app.ts';

export const logger = silentLogger();

/** An answer's body: tests check its shape themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface TestMember {
  id: string;
  token: string;
  firstName: string;
  lastName: string;
  /** Announces a new state of this member (the next version), as auth would. */
  update(fields: Partial<Omit<UserEvent, 'id' | 'version'>>): Promise<void>;
  /** Announces the deletion of the account. */
  remove(): Promise<void>;
  /** Places a listing in this member's inventory (the stand-in listing service); answers its id. */
  listing(title?: string): string;
  /** Takes a listing out of the inventory again (traded, deleted). */
  unlist(listingId: string): void;
}

export interface TradeHarness {
  url: string;
  db: Connection;
  /** As the trade service's own NATS user. */
  bus: Bus;
  /** The privileged NATS user: publishes auth's and listing's events, reads the trade stream. */
  adminBus: Bus;
  redis: RedisClientType;
  issuer: TestIssuer;
  service: ServiceParts;
  /** Every `trade.>` event published since the harness started. */
  events: EventEnvelope[];
  /** The service's clock: undefined is the real time. */
  now: Date | undefined;
  /** Inventory questions the stand-in answered. */
  inventoryCalls: number;
  member(fields?: Partial<Omit<UserEvent, 'id' | 'version'>>, options?: { tokenRoles?: Role[] }): Promise<TestMember>;
  close(): Promise<void>;
}

/**
 * Purges the auth, listing and trade streams first (the run's other files publish there too),
 * then starts the service. The inventory stand-in answers on the listing service's subject, in its
 * queue group: no listing service runs meanwhile (the integration files run one after another).
 */
export async function startTrade(extra: Partial<TradeDeps> = {}): Promise<TradeHarness> {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
  const redis: RedisClientType = createClient({ url: redisUrl });
  const [db, bus, adminBus, issuer] = await Promise.all([
    connectMongo(mongoUrl, `trade-${randomUUID().slice(0, 8)}`),
    connectBus(natsServiceUrls?.trade ?? natsUrl, 'trade-test'),
    connectBus(natsUrl, 'trade-test-admin'),
    createTestIssuer(),
    redis.connect(),
  ]);
  for (const stream of ['auth', 'listing', 'trade']) {
    await ensureStream(adminBus, stream);
    await adminBus.jsm.streams.purge(stream);
  }
  const events: EventEnvelope[] = [];
  const consumer = await adminBus.js.consumers.get('trade', { filterSubjects: ['trade.>'] });
  const messages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) events.push(msg.json<EventEnvelope>());
  })();

  const inventories = new Map<string, InventoryItem[]>();
  const responder: Worker = serveQuery(
    adminBus,
    'listing',
    inventoryQueries.get,
    async ({ userId }) => {
      harness.inventoryCalls++;
      const items = inventories.get(userId);
      if (!items) throw notFound('Gebruiker niet gevonden');
      return [...items, { listingID: DEFAULT_CRATE.listingID, userID: userId, title: DEFAULT_CRATE.title, description: 'Het krat bier.', imageUrl: DEFAULT_CRATE.imageUrl, thumbnailUrl: DEFAULT_CRATE.imageUrl, isDefault: true }];
    },
    logger,
  );

  const service = await createTradeService({ db, bus, redis, logger, verifyToken: issuer.verifyToken, clock: () => harness.now ?? new Date(), ...extra });
  const server = await listen(service.app);
  const members = db.collection<{ _id: string; version: number }>('members');
  const projected = (id: string, version: number) => waitFor(async () => (await members.findOne({ _id: id }))?.version === version, `member ${id} at version ${version}`);

  const harness: TradeHarness = {
    url: server.url,
    db,
    bus,
    adminBus,
    redis,
    issuer,
    service,
    events,
    now: undefined,
    inventoryCalls: 0,
    async member(fields = {}, options = {}) {
      const id = new Types.ObjectId().toHexString();
      let state: UserEvent = { id, version: 1, firstName: 'Lid', lastName: id.slice(-4), profilePicture: `/uploads/avatars/${id}.webp`, roles: ['Gebruiker'], activated: true, ...fields };
      await publishEvent(adminBus, createEvent(eventRegistry, 'auth.user.registered', state));
      await projected(id, 1);
      inventories.set(id, []);
      return {
        id,
        token: await issuer.sign({ sub: id, roles: options.tokenRoles ?? state.roles }),
        firstName: state.firstName,
        lastName: state.lastName,
        async update(change) {
          const next = { ...state, ...change, version: state.version + 1 };
          for (const [key, value] of Object.entries(change)) if (value === undefined) delete (next as Record<string, unknown>)[key];
          state = next as UserEvent;
          await publishEvent(adminBus, createEvent(eventRegistry, 'auth.user.updated', state));
          await projected(id, state.version);
        },
        async remove() {
          state = { ...state, version: state.version + 1 };
          inventories.delete(id);
          await publishEvent(adminBus, createEvent(eventRegistry, 'auth.user.deleted', { id, version: state.version }));
          await projected(id, state.version);
        },
        listing(title = 'Stadsfiets') {
          const listingID = new Types.ObjectId().toHexString();
          const item: InventoryItem = { listingID, userID: id, title, description: `${title}, goed onderhouden.`, imageUrl: `/uploads/listings/${listingID}.webp`, thumbnailUrl: `/uploads/listings/${listingID}-480.webp`, isDefault: false };
          inventories.set(id, [item, ...(inventories.get(id) ?? [])]);
          return listingID;
        },
        unlist(listingId) {
          inventories.set(id, (inventories.get(id) ?? []).filter((i) => i.listingID !== listingId));
        },
      };
    },
    async close() {
      await server.close();
      for (const worker of service.workers ?? []) await worker.stop();
      await responder.stop();
      await messages.close();
      await reading;
      await db.dropDatabase();
      await Promise.all([db.close(), bus.nc.drain(), adminBus.nc.drain(), issuer.close(), redis.quit()]);
    },
  };
  return harness;
}

/** Waits (also outside a test: hooks) until `check` holds. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const call = (url: string, path: string, init: Omit<RequestInit, 'body'> & { token?: string; json?: unknown } = {}) => {
  const { token, json, ...rest } = init;
  return fetch(`${url}${path}`, {
    ...rest,
    ...(json !== undefined && { body: JSON.stringify(json) }),
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(json !== undefined && { 'content-type': 'application/json' }), ...rest.headers },
  });
};

/** Status and body of a call. */
export async function send(url: string, path: string, init: Parameters<typeof call>[2] = {}): Promise<{ status: number; body: Json }> {
  const res = await call(url, path, init);
  return { status: res.status, body: await body(res) };
}

/** The seed's payload for an offer on `listingId` of `receiver`, with these items. */
export const offerPayload = (sender: Pick<TestMember, 'id'>, receiver: Pick<TestMember, 'id'>, listingId: string, items: { listingID: string; userID: string }[] = [], message?: string): CreateOfferRequest => ({
  senderID: sender.id,
  receiverID: receiver.id,
  listingOfferedOnID: listingId,
  message,
  items: items.length ? items : [{ listingID: listingId, userID: receiver.id }],
});

/** Makes an offer through the API (201 expected) and answers it. */
export async function makeOffer(h: TradeHarness, sender: TestMember, receiver: TestMember, listingId?: string, items?: { listingID: string; userID: string }[]) {
  const on = listingId ?? receiver.listing();
  const res = await send(h.url, '/api/tradeoffer/create', { method: 'POST', token: sender.token, json: offerPayload(sender, receiver, on, items) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Json;
}

export const respond = (h: TradeHarness, who: TestMember, id: number, status: string) => send(h.url, `/api/tradeoffer/respond/${id}?status=${status}`, { method: 'PUT', token: who.token });
export const confirm = (h: TradeHarness, who: TestMember, id: number) => send(h.url, `/api/tradeoffer/confirm/${id}`, { method: 'POST', token: who.token });

/** An offer taken to Completed (accepted, both confirmed). */
export async function completedOffer(h: TradeHarness, sender: TestMember, receiver: TestMember, listingId?: string, items?: { listingID: string; userID: string }[]) {
  const offer = await makeOffer(h, sender, receiver, listingId, items);
  expect((await respond(h, receiver, offer.id, 'Accepted')).status).toBe(200);
  expect((await confirm(h, sender, offer.id)).status).toBe(200);
  const done = await confirm(h, receiver, offer.id);
  expect(done.body.status).toBe('Completed');
  return done.body as Json;
}

/** The events of one offer, in order. */
export const eventsOf = (h: TradeHarness, offerId: number) => h.events.filter((e) => (e.payload as { id?: unknown }).id === offerId && e.type.startsWith('trade.offer.'));

/** Publishes an event of another service (auth, listing) or a copy of one of trade's, as the privileged user. */
export async function publish<S extends keyof typeof eventRegistry & string>(h: TradeHarness, type: S, payload: z.input<(typeof eventRegistry)[S]>) {
  const event = createEvent(eventRegistry, type, payload);
  await publishEvent(h.adminBus, event);
  return event;
}
