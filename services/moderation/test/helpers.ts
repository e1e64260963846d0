// The moderation service over real HTTP on the run's stores, with members and listings made the
// way production makes them (auth's and listing's events) and every `moderation.>` event it
// publishes collected.
import { randomUUID } from 'node:crypto';
import { eventRegistry, type EventEnvelope, type ListingEvent, type Role, type UserEvent } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, createEvent, ensureStream, publishEvent, type Bus, type Connection, type ServiceParts } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { createModerationService, type ModerationConfig } from '../src/app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface TestMember {
  id: string;
  token: string;
  firstName: string;
  lastName: string;
  /** Publishes a listing of this member (listing.listing.created) and waits until it is projected. */
  listing(fields?: Partial<ListingEvent>): Promise<string>;
}

export interface ModerationHarness {
  url: string;
  db: Connection;
  adminBus: Bus;
  issuer: TestIssuer;
  service: ServiceParts;
  /** Every `moderation.>` event published since the harness started. */
  events: EventEnvelope[];
  member(fields?: Partial<Omit<UserEvent, 'id' | 'version'>>): Promise<TestMember>;
  admin(): Promise<TestMember>;
  close(): Promise<void>;
}

export async function startModeration(config: Partial<ModerationConfig> = {}): Promise<ModerationHarness> {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
  const redis: RedisClientType = createClient({ url: redisUrl });
  const [db, bus, adminBus, issuer] = await Promise.all([
    connectMongo(mongoUrl, `moderation-${randomUUID().slice(0, 8)}`),
    connectBus(natsServiceUrls?.moderation ?? natsUrl, 'moderation-test'),
    connectBus(natsUrl, 'moderation-test-admin'),
    createTestIssuer(),
    redis.connect(),
  ]);
  for (const stream of ['auth', 'listing', 'moderation']) {
    await ensureStream(adminBus, stream);
    await adminBus.jsm.streams.purge(stream);
  }
  const events: EventEnvelope[] = [];
  const consumer = await adminBus.js.consumers.get('moderation', { filterSubjects: ['moderation.>'] });
  const messages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) events.push(msg.json<EventEnvelope>());
  })();
  const service = await createModerationService({ db, bus, redis, logger: silentLogger(), verifyToken: issuer.verifyToken, config });
  const server = await listen(service.app);
  const projected = (collection: string, id: string, version: number) =>
    waitFor(async () => (await db.collection<{ _id: string; version: number }>(collection).findOne({ _id: id }))?.version === version, `${collection} ${id} at ${version}`);

  const harness: ModerationHarness = {
    url: server.url,
    db,
    adminBus,
    issuer,
    service,
    events,
    async member(fields = {}) {
      const id = new Types.ObjectId().toHexString();
      const state: UserEvent = { id, version: 1, firstName: 'Lid', lastName: id.slice(-4), profilePicture: '', roles: ['Gebruiker'], activated: true, ...fields };
      await publishEvent(adminBus, createEvent(eventRegistry, 'auth.user.registered', state));
      await projected('members', id, 1);
      return {
        id,
        token: await issuer.sign({ sub: id, roles: state.roles as Role[] }),
        firstName: state.firstName,
        lastName: state.lastName,
        async listing(change = {}) {
          const listingId = new Types.ObjectId().toHexString();
          const event = createEvent(eventRegistry, 'listing.listing.created', {
            id: listingId, version: 1, ownerId: id, active: true, title: 'Stadsfiets', excerpt: 'Goed onderhouden.', listingType: 'item', acceptsItems: false, isPremium: false,
            initialValue: null, categoryIds: [], imageUrl: '', thumbnailUrl: '', placeholder: '', createdAt: new Date().toISOString(), ...change,
          });
          await publishEvent(adminBus, event);
          await projected('listings', listingId, event.payload.version);
          return listingId;
        },
      };
    },
    admin() {
      return harness.member({ firstName: 'Beheer', roles: ['Beheerder'] });
    },
    async close() {
      await server.close();
      for (const worker of service.workers ?? []) await worker.stop();
      await messages.close();
      await reading;
      await db.dropDatabase();
      await Promise.all([db.close(), bus.nc.drain(), adminBus.nc.drain(), issuer.close(), redis.quit()]);
    },
  };
  return harness;
}

export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Status and body of a call. */
export async function send(url: string, path: string, init: { method?: string; token?: string; json?: unknown } = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    headers: { ...(init.token && { authorization: `Bearer ${init.token}` }), ...(init.json !== undefined && { 'content-type': 'application/json' }) },
  });
  return { status: res.status, body: await body(res) };
}
