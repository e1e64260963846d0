import { randomUUID } from 'node:crypto';
import { categoryQueries, eventRegistry, type Category } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, consume, createEvent, ensureStream, publishEvent, requestQuery, type Bus, type Connection, type ServiceParts } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListingService } from '../src/app.ts';
import { CATEGORIES } from '../src/categories/seed.ts';

const logger = silentLogger();
let db: Connection;
let bus: Bus;
/** The test's own reading and tidying: the privileged user (the service's user may do neither). */
let adminBus: Bus;
let issuer: TestIssuer;
let service: ServiceParts;
let server: Awaited<ReturnType<typeof listen>>;
let redis: RedisClientType;

beforeAll(async () => {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
  redis = createClient({ url: redisUrl });
  await redis.connect();
  // As the listing service's own NATS user, so a right it lacks fails here.
  const listingNats = natsServiceUrls?.listing ?? natsUrl;
  [db, bus, adminBus, issuer] = await Promise.all([
    connectMongo(mongoUrl, `listing-${randomUUID().slice(0, 8)}`),
    connectBus(listingNats, 'listing-test'),
    connectBus(natsUrl, 'listing-test-admin'),
    createTestIssuer(),
  ]);
  // Other files of the run start the listing service too; count only this file's events.
  await ensureStream(bus, 'listing');
  await adminBus.jsm.streams.purge('listing');
  service = await createListingService({ db, bus, redis, logger, verifyToken: issuer.verifyToken });
  server = await listen(service.app);
});
afterAll(async () => {
  await server.close();
  for (const worker of service.workers ?? []) await worker.stop();
  await db.dropDatabase();
  await Promise.all([db.close(), bus.nc.drain(), adminBus.nc.drain(), issuer.close(), redis.quit()]);
});

describe('categories', () => {
  it('serves the seeded categories in order, premium ones marked', async () => {
    const res = await fetch(`${server.url}/api/category`);
    expect(res.status).toBe(200);
    const categories: Category[] = await body(res);
    expect(categories.map((c) => c.id)).toEqual(CATEGORIES.map((c) => c._id));
    expect(categories.filter((c) => c.isPremium).map((c) => c.id)).toEqual(expect.arrayContaining(['vinyl', 'smartwatches', 'gitaren']));
    expect(categories.find((c) => c.id === 'fietsen')).toEqual({ id: 'fietsen', name: 'Fietsen & onderdelen', icon: 'bike', isPremium: false });
  });

  it('seeds idempotently and announces each category exactly once', async () => {
    const again = await createListingService({ db, bus, redis, logger, verifyToken: issuer.verifyToken });
    for (const worker of again.workers ?? []) await worker.stop();
    expect(await db.collection('categories').countDocuments()).toBe(CATEGORIES.length);

    const seen: string[] = [];
    const worker = await consume(adminBus, {
      durable: 'test-category-created',
      registry: { 'listing.category.created': categoryQueries.list.response.element },
      subjects: ['listing.category.created'],
      db,
      logger,
      handler: async (event) => {
        seen.push(event.payload.id);
      },
    });
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBe(CATEGORIES.length);
    await new Promise((r) => setTimeout(r, 300));
    await worker.stop();
    expect(seen.sort()).toEqual(CATEGORIES.map((c) => c._id).sort());
  });

  it('answers the category query over NATS request/reply', async () => {
    const some = await requestQuery(bus, categoryQueries.list, { ids: ['vinyl', 'boeken'] });
    expect(some.map((c) => c.id)).toEqual(['boeken', 'vinyl']);
  });

  it('serves the list from memory with a validator: unchanged, a revalidation gets 304 without a body', async () => {
    const first = await fetch(`${server.url}/api/category`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    await first.body?.cancel();

    // As a browser revalidates its copy (fetch would add `cache-control: no-cache` to a conditional request).
    const again = await fetch(`${server.url}/api/category`, { headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('shows a category another replica added once its event arrives', async () => {
    const before = await fetch(`${server.url}/api/category`);
    await before.body?.cancel();
    // Another replica's write: the document, then its event (as its outbox relay would publish it).
    const added = { _id: 'planten', name: 'Stekjes & zaden', icon: 'sprout', isPremium: false, position: 99, version: 1 };
    await db.collection<{ _id: string }>('categories').insertOne(added);
    const { _id: id, position: _, ...fields } = added;
    await publishEvent(bus, createEvent(eventRegistry, 'listing.category.created', { id, ...fields }));

    await expect.poll(async () => (await body(await fetch(`${server.url}/api/category`))).at(-1)?.id, { timeout: 10_000 }).toBe('planten');
    const after = await fetch(`${server.url}/api/category`, { headers: { 'if-none-match': before.headers.get('etag')!, 'cache-control': 'max-age=0' } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(await body(after)).toContainEqual({ id: 'planten', name: 'Stekjes & zaden', icon: 'sprout', isPremium: false });
    await expect(requestQuery(bus, categoryQueries.list, { ids: ['planten'] })).resolves.toEqual([{ id: 'planten', name: 'Stekjes & zaden', icon: 'sprout', isPremium: false }]);
  });

  it('publishes its OpenAPI document, reports readiness, and answers unknown routes with JSON 404', async () => {
    const doc = await body(await fetch(`${server.url}/openapi.json`));
    expect(doc.paths['/api/category'].get.responses['200'].content['application/json'].schema.items.$ref).toBe('#/components/schemas/Category');
    const ready = await fetch(`${server.url}/readyz`);
    expect(await body(ready)).toEqual({ status: 'ready', checks: { mongodb: 'ok', nats: 'ok', search: 'ok', savedSearches: 'ok' } });
    const missing = await fetch(`${server.url}/api/category/unknown`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-powered-by')).toBeNull();
  });
});
