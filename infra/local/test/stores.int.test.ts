import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { ensureStream, natsServers } from '@ruilplein/service-kit';
import { connect, ErrorCode, NatsError } from 'nats';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { dockerAnswers } from '../src/docker.ts';
import { startStores, type Stores } from '../src/stores.ts';
import { testStores, type TestStoreUrls } from '../src/testing.ts';

async function withMongo<T>(url: string, use: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(url);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const redisClient = (url: string) => createClient({ url });

async function withRedis<T>(url: string, use: (client: ReturnType<typeof redisClient>) => Promise<T>): Promise<T> {
  const client = redisClient(url);
  await client.connect();
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

async function withNats<T>(url: string, use: (nc: Awaited<ReturnType<typeof connect>>) => Promise<T>): Promise<T> {
  const nc = await connect(natsServers(url));
  try {
    return await use(nc);
  } finally {
    await nc.close();
  }
}

const write = async (s: TestStoreUrls, tag: string) => {
  await withMongo(s.mongoUrl, (c) => c.db('local_test').collection('things').insertOne({ tag, n: 1 }));
  await withRedis(s.redisUrl, (c) => c.set(`local-test:${tag}`, 'ja'));
  return withNats(s.natsUrl, async (nc) => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: `LOCAL_TEST_${tag}`, subjects: [`localtest.${tag}.>`] });
    return (await nc.jetstream().publish(`localtest.${tag}.created`, new TextEncoder().encode(tag))).seq;
  });
};

const read = async (s: TestStoreUrls, tag: string, seq: number) => ({
  doc: await withMongo(s.mongoUrl, (c) => c.db('local_test').collection('things').findOne({ tag }, { projection: { _id: 0 } })),
  value: await withRedis(s.redisUrl, (c) => c.get(`local-test:${tag}`)),
  message: await withNats(s.natsUrl, async (nc) => {
    const stored = await (await nc.jetstreamManager()).streams.getMessage(`LOCAL_TEST_${tag}`, { seq });
    return { subject: stored.subject, data: new TextDecoder().decode(stored.data) };
  }),
});

describe('the stores provided to integration tests', () => {
  it('answer: a document, a key and a JetStream message go in and come back', async () => {
    const stores = testStores();
    const tag = `t${Date.now()}`;
    const seq = await write(stores, tag);
    expect(seq).toBe(1);
    expect(await read(stores, tag, seq)).toEqual({
      doc: { tag, n: 1 },
      value: 'ja',
      message: { subject: `localtest.${tag}.created`, data: tag },
    });
  });
});

describe.skipIf(!testStores().natsServiceUrls)('NATS users', () => {
  // Each publish expects a stream that does not exist: JetStream answers it (so the server let it
  // through) without storing anything, and no other test's consumer sees a forged event.
  const attempt = (url: string, subject: string) =>
    withNats(url, (nc) =>
      nc
        .jetstream()
        .publish(subject, new TextEncoder().encode('{}'), { expect: { streamName: 'permission-probe' } })
        .then(
          () => 'stored',
          (err: unknown) => (err instanceof NatsError && err.code === ErrorCode.PermissionsViolation ? 'refused' : 'allowed'),
        ),
    );

  it('let a service publish its own events and dead letters only; the admin user publishes anything', async () => {
    const { natsUrl, natsServiceUrls } = testStores();
    const listing = natsServiceUrls!.listing!;
    await withNats(natsUrl, async (nc) => {
      const bus = { nc, js: nc.jetstream(), jsm: await nc.jetstreamManager() };
      for (const stream of ['listing', 'auth', 'deadletter']) await ensureStream(bus, stream);
    });
    const outcomes = {
      'listing listing.x.y': await attempt(listing, 'listing.x.y'),
      'listing auth.user.registered': await attempt(listing, 'auth.user.registered'),
      'listing deadletter.listing.listing-x': await attempt(listing, 'deadletter.listing.listing-x'),
      'listing deadletter.auth.auth-x': await attempt(listing, 'deadletter.auth.auth-x'),
      'admin listing.x.y': await attempt(natsUrl, 'listing.x.y'),
      'admin auth.user.registered': await attempt(natsUrl, 'auth.user.registered'),
    };
    expect(outcomes).toEqual({
      'listing listing.x.y': 'allowed',
      'listing auth.user.registered': 'refused',
      'listing deadletter.listing.listing-x': 'allowed',
      'listing deadletter.auth.auth-x': 'refused',
      'admin listing.x.y': 'allowed',
      'admin auth.user.registered': 'allowed',
    });
  });

  it('let a service answer its own queries and ask others, but not serve another service’s', async () => {
    const { natsServiceUrls } = testStores();
    await withNats(natsServiceUrls!.listing!, async (listing) => {
      await withNats(natsServiceUrls!.auth!, async (auth) => {
        auth.subscribe('rpc.auth.probe', { callback: (_err, msg) => msg.respond(new TextEncoder().encode('ja')) });
        await auth.flush();
        const answer = await listing.request('rpc.auth.probe', undefined, { timeout: 2000 });
        expect(new TextDecoder().decode(answer.data)).toBe('ja');

        const refused = new Promise((resolve) => listing.subscribe('rpc.auth.other', { callback: resolve }));
        await expect(refused).resolves.toMatchObject({ code: ErrorCode.PermissionsViolation });
      });
    });
  });
});

// Containers are throw-away; the local servers are what keeps `.data` between two `npm start`s.
describe.skipIf(await dockerAnswers())('local stores', () => {
  it('keep their data across a stop and a start on the same data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-restart-'));
    let stores: Stores | undefined;
    try {
      stores = await startStores({ dataDir, envPrefix: false });
      expect(stores.kind).toEqual({ mongo: expect.stringMatching(/^(mongod|ferretdb)$/), redis: 'redis-server', nats: 'nats-server' });
      const seq = await write(stores, 'restart');
      await stores.stop();

      stores = await startStores({ dataDir, envPrefix: false });
      expect(await read(stores, 'restart', seq)).toEqual({
        doc: { tag: 'restart', n: 1 },
        value: 'ja',
        message: { subject: 'localtest.restart.created', data: 'restart' },
      });
    } finally {
      await stores?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('say which server did not come up and why, and leave none running', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    const { port } = taken.address() as AddressInfo;
    const dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-fail-'));
    try {
      const failure = startStores({ dataDir, envPrefix: false, ports: { redis: port } });
      await expect(failure).rejects.toThrow(/redis-server \(port \d+\) did not come up: exited \(1\)[\s\S]*Address already in use/);
      expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain(dataDir);
    } finally {
      taken.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
