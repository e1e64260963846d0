// A real nats-server configured as `npm start` configures it (natsServerConfig), for a copy of the
// registry with one service more: the new service works with the rights its entry alone gives it,
// and is refused the others' subjects, streams and consumers.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATS_ADMIN, registry, type ServiceEntry } from '@ruilplein/contracts';
import {
  connectBus,
  connectMongo,
  consume,
  createEvent,
  deadLetterCount,
  ensureStream,
  followStream,
  PermanentError,
  publishEvent,
  type Bus,
  type Connection,
  type Worker,
} from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { testStores } from '@ruilplein/service-kit/test-stores';
import { ErrorCode, NatsError, type JsMsg } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasExited, spawnChild, stopChild } from '../src/children.ts';
import { findBinary } from '../src/paths.ts';
import { freePort, natsServerConfig } from '../src/stores.ts';

const reviewsEvents = { 'reviews.review.added': z.object({ n: z.number() }) };
const entries: Record<string, Pick<ServiceEntry, 'name' | 'nats'>> = {
  ...registry,
  reviews: { name: 'reviews' as ServiceEntry['name'], nats: { durables: { 'reviews-offers': 'trade' }, follows: ['listing', 'payment'] } },
};
const otherEvents = {
  'trade.offer.created': z.object({ n: z.number() }),
  'listing.listing.created': z.object({ n: z.number() }),
};
const logger = silentLogger();

let dir = '';
let server: ReturnType<typeof spawnChild> | undefined;
let admin: Bus;
let reviews: Bus;
let db: Connection;
const workers: Worker[] = [];

beforeAll(async () => {
  const bin = findBinary('nats-server');
  if (!bin) throw new Error('nats-server: not found in .tools/bin or on the PATH; run `npm run bootstrap`');
  dir = await mkdtemp(join(tmpdir(), 'ruilplein-nats-users-'));
  const passwords = Object.fromEntries([NATS_ADMIN, 'reviews', 'listing'].map((u) => [u, randomBytes(12).toString('hex')]));
  await writeFile(join(dir, 'nats.conf'), natsServerConfig(passwords, entries));
  const port = await freePort();
  server = spawnChild(bin, ['-c', join(dir, 'nats.conf'), '-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(dir, 'data')], { stdio: 'ignore' });
  const url = (user: string) => `nats://${user}:${passwords[user]}@127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      admin = await connectBus(url(NATS_ADMIN), 'nats-users-admin');
      break;
    } catch (err) {
      if (i > 100 || hasExited(server)) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  reviews = await connectBus(url('reviews'), 'nats-users-reviews');
  // The other services' streams, and a consumer of listing's own, made by their owners (here the admin).
  for (const stream of ['trade', 'listing', 'auth']) await ensureStream(admin, stream);
  await admin.jsm.consumers.add('auth', { durable_name: 'listing-members', ack_policy: 'explicit' as never, filter_subjects: ['auth.user.registered'] });
  db = await connectMongo(testStores().mongoUrl, `nats-users-${randomUUID().slice(0, 8)}`);
});

afterAll(async () => {
  for (const w of workers) await w.stop();
  await db?.dropDatabase();
  await db?.close();
  await reviews?.nc.close();
  await admin?.nc.close();
  if (server) await stopChild(server);
  await rm(dir, { recursive: true, force: true });
});

/** 'refused' when NATS refused the subject for this user, else 'allowed' (whatever JetStream answered). */
const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    () => 'allowed',
    (err: unknown) => (err instanceof NatsError && err.code === ErrorCode.PermissionsViolation ? 'refused' : `allowed (${(err as Error).message})`),
  );

describe('a new service with the rights its registry entry gives it', () => {
  it('creates its stream and publishes its events, parks its dead letters', async () => {
    await ensureStream(reviews, 'reviews');
    const ack = await publishEvent(reviews, createEvent(reviewsEvents, 'reviews.review.added', { n: 1 }));
    expect(ack.stream).toBe('reviews');
    await ensureStream(reviews, 'deadletter');
    expect(await deadLetterCount(reviews, 'reviews-offers')).toBe(0);
  });

  it('runs its durable consumer on another service’s stream, and parks what fails there', async () => {
    const seen: number[] = [];
    workers.push(
      await consume(reviews, {
        durable: 'reviews-offers',
        registry: otherEvents,
        subjects: ['trade.offer.created'],
        db,
        logger,
        handler: async (event) => {
          if (event.payload.n < 0) throw new PermanentError('negatief');
          seen.push(event.payload.n);
        },
      }),
    );
    await publishEvent(admin, createEvent(otherEvents, 'trade.offer.created', { n: 7 }));
    await publishEvent(admin, createEvent(otherEvents, 'trade.offer.created', { n: -1 }));
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual([7]);
    await expect.poll(() => deadLetterCount(reviews, 'reviews-offers'), { timeout: 10_000 }).toBe(1);
  });

  it('follows a stream it declared with an ordered consumer of its own', async () => {
    const feed = await followStream(reviews, 'listing', { filterSubjects: ['listing.listing.created'] });
    const got: JsMsg[] = [];
    const reading = (async () => {
      for await (const msg of feed) got.push(msg);
    })();
    await publishEvent(admin, createEvent(otherEvents, 'listing.listing.created', { n: 3 }));
    await expect.poll(() => got.length, { timeout: 10_000 }).toBe(1);
    await feed.close();
    await reading;
  });

  it('is refused another service’s subjects, stream settings and consumers', async () => {
    const jsm = reviews.jsm;
    const outcomes = {
      'publish listing.listing.created': await outcome(reviews.js.publish('listing.listing.created', new Uint8Array())),
      'publish deadletter.listing.listing-x': await outcome(reviews.js.publish('deadletter.listing.listing-x', new Uint8Array())),
      'create stream moderation': await outcome(jsm.streams.add({ name: 'moderation', subjects: ['moderation.>'] })),
      'update stream listing': await outcome(jsm.streams.update('listing', { max_msgs: 10 })),
      'delete stream trade': await outcome(jsm.streams.delete('trade')),
      'purge its own stream': await outcome(jsm.streams.purge('reviews')),
      'info of listing-members': await outcome(jsm.consumers.info('auth', 'listing-members')),
      'create listing-members': await outcome(jsm.consumers.add('auth', { durable_name: 'listing-members', ack_policy: 'explicit' as never })),
      'delete listing-members': await outcome(jsm.consumers.delete('auth', 'listing-members')),
      'pull from listing-members': await outcome(reviews.nc.request('$JS.API.CONSUMER.MSG.NEXT.auth.listing-members', undefined, { timeout: 2000 })),
      'a durable on a stream it does not read': await outcome(jsm.consumers.add('auth', { durable_name: 'reviews-members', ack_policy: 'explicit' as never })),
      'serve listing’s queries': await outcome(
        new Promise((resolve, reject) => {
          reviews.nc.subscribe('rpc.listing.probe.asked', { callback: (err) => (err ? reject(err) : resolve(undefined)) });
          setTimeout(() => resolve(undefined), 2000);
        }),
      ),
    };
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((k) => [k, 'refused'])));
    // What was refused did not happen.
    expect((await admin.jsm.streams.info('listing')).config.max_msgs).not.toBe(10);
    expect(await admin.jsm.consumers.info('auth', 'listing-members')).toBeDefined();
  });

  it('may create a stream it reads (the kit’s settings), but never change its owner’s settings', async () => {
    await expect(reviews.jsm.streams.info('payment')).rejects.toThrow(/stream not found/);
    await ensureStream(reviews, 'payment');
    expect((await admin.jsm.streams.info('payment')).config.subjects).toEqual(['payment.>']);
    // The owner widened it; the reader's ensureStream leaves that alone instead of failing.
    await admin.jsm.streams.update('payment', { subjects: ['payment.>', 'payments.>'] });
    await ensureStream(reviews, 'payment');
    expect((await admin.jsm.streams.info('payment')).config.subjects).toEqual(['payment.>', 'payments.>']);
    expect(await outcome(reviews.jsm.streams.update('payment', { subjects: ['payment.>'] }))).toBe('refused');
  });
});
