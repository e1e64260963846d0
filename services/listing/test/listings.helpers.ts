// The listing service over real HTTP on the run's stores, with members made the way production
// makes them (auth's events), for the listing, wishlist and member tests.
import { randomUUID } from 'node:crypto';
import { DEFAULT_AVATAR, eventRegistry, type EventEnvelope, type Role, type UserEvent } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, createEvent, ensureStream, publishEvent, type Bus, type Connection, type ServiceParts } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import sharp from 'sharp';
import { expect } from 'vitest';
import { createListingService, type ListingDeps } from '../src/app.ts';

export const logger = silentLogger();
export const MB = 1024 * 1024;

export const PLACES = {
  utrecht: { city: 'Utrecht', latitude: 52.0907, longitude: 5.1214 },
  amsterdam: { city: 'Amsterdam', latitude: 52.3676, longitude: 4.9041 },
  rotterdam: { city: 'Rotterdam', latitude: 51.9244, longitude: 4.4777 },
} as const;

export interface TestMember {
  id: string;
  token: string;
  /** Announces a new state of this member (the next version), as auth would. */
  update(fields: Partial<Omit<UserEvent, 'id' | 'version'>>): Promise<void>;
  /** Announces the deletion of the account. */
  remove(): Promise<void>;
}

export interface ListingHarness {
  url: string;
  db: Connection;
  /** As the listing service's own NATS user. */
  bus: Bus;
  /** The privileged NATS user: publishes auth's events, reads the listing stream. */
  adminBus: Bus;
  redis: RedisClientType;
  issuer: TestIssuer;
  service: ServiceParts;
  member(fields?: Partial<Omit<UserEvent, 'id' | 'version'>>, options?: { tokenRoles?: Role[] }): Promise<TestMember>;
  /** Every `listing.>` event published since the harness started. */
  events: EventEnvelope[];
  /** Stops the service and starts it again on the same stores (`url` changes). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Purges the auth and listing streams first (the run's other files publish there too: this
 * file's service should neither replay nor count their events), then starts the service.
 */
export async function startListing(extra: Partial<ListingDeps> = {}): Promise<ListingHarness> {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
  const redis: RedisClientType = createClient({ url: redisUrl });
  const [db, bus, adminBus, issuer] = await Promise.all([
    connectMongo(mongoUrl, `listing-${randomUUID().slice(0, 8)}`),
    connectBus(natsServiceUrls?.listing ?? natsUrl, 'listing-test'),
    connectBus(natsUrl, 'listing-test-admin'),
    createTestIssuer(),
    redis.connect(),
  ]);
  for (const stream of ['auth', 'listing']) {
    await ensureStream(adminBus, stream);
    await adminBus.jsm.streams.purge(stream);
  }
  const events: EventEnvelope[] = [];
  const consumer = await adminBus.js.consumers.get('listing', { filterSubjects: ['listing.>'] });
  const messages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) events.push(msg.json<EventEnvelope>());
  })();

  let service = await createListingService({ db, bus, redis, logger, verifyToken: issuer.verifyToken, ...extra });
  let server = await listen(service.app);
  const stop = async () => {
    await server.close();
    for (const worker of service.workers ?? []) await worker.stop();
  };
  const members = db.collection<{ _id: string; version: number }>('members');

  const projected = (id: string, version: number) => waitFor(async () => (await members.findOne({ _id: id }))?.version === version, `member ${id} at version ${version}`);
  const announce = async (type: 'auth.user.registered' | 'auth.user.updated', user: UserEvent) => {
    await publishEvent(adminBus, createEvent(eventRegistry, type, user));
    await projected(user.id, user.version);
  };

  const harness: ListingHarness = {
    url: server.url,
    db,
    bus,
    adminBus,
    redis,
    issuer,
    service,
    events,
    async restart() {
      await stop();
      harness.service = service = await createListingService({ db, bus, redis, logger, verifyToken: issuer.verifyToken, ...extra });
      server = await listen(service.app);
      harness.url = server.url;
    },
    async member(fields = {}, options = {}) {
      const id = new Types.ObjectId().toHexString();
      let state: UserEvent = { id, version: 1, firstName: 'Lid', lastName: id.slice(-4), profilePicture: DEFAULT_AVATAR, ...PLACES.utrecht, roles: ['Gebruiker'], activated: true, ...fields };
      await announce('auth.user.registered', state);
      return {
        id,
        token: await issuer.sign({ sub: id, roles: options.tokenRoles ?? state.roles }),
        async update(change) {
          const next = { ...state, ...change, version: state.version + 1 };
          for (const [key, value] of Object.entries(change)) if (value === undefined) delete (next as Record<string, unknown>)[key];
          state = next as UserEvent;
          await announce('auth.user.updated', state);
        },
        async remove() {
          state = { ...state, version: state.version + 1 };
          await publishEvent(adminBus, createEvent(eventRegistry, 'auth.user.deleted', { id, version: state.version }));
          await projected(id, state.version);
        },
      };
    },
    async close() {
      await stop();
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

/** A photo as a camera makes one: JPEG with EXIF (and the place it was taken), in a colour of its own. */
export function photo(options: { width?: number; height?: number; color?: string; format?: 'jpeg' | 'png' | 'webp' } = {}): Promise<Buffer> {
  const { width = 1200, height = 900, color = '#3b82f6', format = 'jpeg' } = options;
  const image = sharp({ create: { width, height, channels: 3, background: color } });
  if (format === 'png') return image.png().toBuffer();
  if (format === 'webp') return image.webp().toBuffer();
  return image
    .jpeg()
    .withExif({ IFD0: { Make: 'Ruilcamera', Copyright: 'Sanne' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 5/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '5/1 7/1 0/1' } })
    .toBuffer();
}

export type FormFields = Record<string, string | string[] | undefined>;

/** A multipart form: text fields (arrays repeated), then files per field. */
export function formOf(fields: FormFields, files: Record<string, Buffer[]> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of [value].flat()) form.append(name, v);
  }
  for (const [name, list] of Object.entries(files)) list.forEach((data, i) => form.append(name, new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), `foto-${i}.jpg`));
  return form;
}

/** The add form's fields of a simple, valid item. */
export const itemFields = (overrides: FormFields = {}): FormFields => ({
  title: 'Stadsfiets',
  description: 'Een degelijke fiets met drie versnellingen.',
  initialValue: '120,50',
  listingType: 'item',
  CategoryIDs: ['fietsen'],
  ...overrides,
});

export const call = (url: string, path: string, init: RequestInit & { token?: string } = {}) => {
  const { token, ...rest } = init;
  return fetch(`${url}${path}`, { ...rest, headers: { ...(token && { authorization: `Bearer ${token}` }), ...rest.headers } });
};

/** Places a listing through the API and answers it (201 expected). */
export async function createListing(url: string, token: string, fields: FormFields = itemFields(), photos?: Buffer[]) {
  const res = await call(url, '/api/listing/create', { method: 'POST', token, body: formOf(fields, { images: photos ?? [await photo()] }) });
  const answer = await body(res);
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer.listing as { id: string } & Record<string, unknown>;
}

/** Moves a listing's creation back in time (past the six-hour head start), as the seed does. */
export async function age(db: Connection, listingId: string, hours = 7): Promise<void> {
  await db.collection<{ _id: string }>('listings').updateOne({ _id: listingId }, { $set: { createdAt: new Date(Date.now() - hours * 3600_000) } });
}
