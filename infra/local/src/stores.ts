import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { hasExited, onOutputLines, spawnChild, stopChild } from './children.ts';
import { dockerAnswers } from './docker.ts';
import { findBinary } from './paths.ts';

export type StoreName = 'mongo' | 'redis' | 'nats';

export interface StoreKinds {
  mongo: 'env' | 'container' | 'mongod' | 'ferretdb';
  redis: 'env' | 'container' | 'redis-server';
  nats: 'env' | 'container' | 'nats-server';
}

export interface Stores {
  mongoUrl: string;
  redisUrl: string;
  natsUrl: string;
  kind: StoreKinds;
  stop(): Promise<void>;
}

export interface StartStoresOptions {
  /** Local servers keep their data in `<dataDir>/mongo|redis|nats`, their output in `<dataDir>/logs`. */
  dataDir: string;
  /** Fixed ports for local servers and containers; free ones otherwise. */
  ports?: Partial<Record<StoreName, number>>;
  log?: (line: string) => void;
  /**
   * Prefix of the variables naming stores that already run: '' (default) reads MONGODB_URL,
   * REDIS_URL and NATS_URL; 'TEST_' reads TEST_MONGODB_URL…; false ignores the environment.
   */
  envPrefix?: string | false;
}

export const storeEnv = { mongo: 'MONGODB_URL', redis: 'REDIS_URL', nats: 'NATS_URL' } as const;

interface Started<K> {
  url: string;
  kind: K;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 20_000;

export async function startStores(opts: StartStoresOptions): Promise<Stores> {
  const results = await Promise.allSettled([startStore('mongo', opts), startStore('redis', opts), startStore('nats', opts)]);
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= Promise.all(started.map((s) => s.stop())).then(() => undefined));

  const [mongo, redis, nats] = results;
  if (mongo.status === 'rejected' || redis.status === 'rejected' || nats.status === 'rejected') {
    await stop();
    const reasons = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    throw new Error(`stores did not start:\n${reasons.join('\n')}`);
  }
  for (const [name, s] of [['mongo', mongo.value], ['redis', redis.value], ['nats', nats.value]] as const) {
    opts.log?.(`${name}: ${s.kind} at ${s.url}`);
  }
  return {
    mongoUrl: mongo.value.url,
    redisUrl: redis.value.url,
    natsUrl: nats.value.url,
    kind: { mongo: mongo.value.kind, redis: redis.value.kind, nats: nats.value.kind },
    stop,
  };
}

async function startStore<S extends StoreName>(store: S, opts: StartStoresOptions): Promise<Started<StoreKinds[S]>> {
  const fromEnv = opts.envPrefix === false ? undefined : process.env[(opts.envPrefix ?? '') + storeEnv[store]];
  if (fromEnv) return { url: fromEnv, kind: 'env', stop: async () => {} } as Started<StoreKinds[S]>;
  const started = (await dockerAnswers()) ? await startContainer(store, opts.ports?.[store]) : await startLocal(store, opts);
  return started as Started<StoreKinds[S]>;
}

const images = {
  mongo: { image: 'mongo:7', port: 27017, command: [] },
  redis: { image: 'redis:7-alpine', port: 6379, command: [] },
  // The alpine image's entrypoint runs the command as given.
  nats: { image: 'nats:2.12-alpine', port: 4222, command: ['nats-server', '-js'] },
} as const;

async function startContainer(store: StoreName, hostPort: number | undefined): Promise<Started<'container'>> {
  const { GenericContainer } = await import('testcontainers');
  const { image, port, command } = images[store];
  let container = new GenericContainer(image).withExposedPorts(hostPort ? { container: port, host: hostPort } : port);
  if (command.length) container = container.withCommand([...command]);
  const started = await container.start();
  const url = `${scheme[store]}://${started.getHost()}:${started.getMappedPort(port)}`;
  const stop = async () => {
    await started.stop();
  };
  try {
    await waitReady(store, url);
  } catch (err) {
    await stop();
    throw new Error(`${store} container (${image}) did not answer: ${(err as Error).message}`, { cause: err });
  }
  return { url, kind: 'container', stop };
}

const scheme = { mongo: 'mongodb', redis: 'redis', nats: 'nats' } as const;

function localServer(store: StoreName, dir: string, port: number) {
  switch (store) {
    case 'mongo': {
      const mongod = findBinary('mongod');
      if (mongod) return { kind: 'mongod', bin: mongod, args: ['--bind_ip', '127.0.0.1', '--port', `${port}`, '--dbpath', dir] } as const;
      return { kind: 'ferretdb', bin: findBinary('ferretdb'), args: ['-listen', `127.0.0.1:${port}`, '-data', dir] } as const;
    }
    case 'redis':
      // Append-only file without RDB snapshots: every write survives a restart.
      return { kind: 'redis-server', bin: findBinary('redis-server'), args: ['--bind', '127.0.0.1', '--port', `${port}`, '--dir', dir, '--appendonly', 'yes', '--save', ''] } as const;
    case 'nats':
      return { kind: 'nats-server', bin: findBinary('nats-server'), args: ['-js', '-a', '127.0.0.1', '-p', `${port}`, '-sd', dir] } as const;
  }
}

async function startLocal(store: StoreName, opts: StartStoresOptions): Promise<Started<StoreKinds[StoreName]>> {
  const dir = join(opts.dataDir, store);
  const logDir = join(opts.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const port = opts.ports?.[store] ?? (await freePort());
  const { kind, bin, args } = localServer(store, dir, port);
  if (!bin) throw new Error(`${kind}: not found in .tools/bin or on the PATH; run \`npm run bootstrap\``);

  const logFile = join(logDir, `${store}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const tail: string[] = [];
  const child = spawnChild(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  onOutputLines(child, (line) => {
    log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 15) tail.shift();
  });
  child.once('close', () => log.end());

  const url = `${scheme[store]}://127.0.0.1:${port}`;
  try {
    await waitReady(store, url, child);
  } catch (err) {
    await stopChild(child);
    throw new Error(`${kind} (port ${port}) did not come up: ${(err as Error).message}\n  last output (${logFile}):\n    ${tail.join('\n    ')}`, { cause: err });
  }
  return { url, kind, stop: () => stopChild(child) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until the store answers its protocol's greeting, or the child exits, or time runs out. */
async function waitReady(store: StoreName, url: string, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let spawnError: Error | undefined;
  child?.once('error', (err) => (spawnError = err));
  for (;;) {
    if (spawnError) throw spawnError;
    if (child && hasExited(child)) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    try {
      return await probes[store](url);
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`no answer on ${url} within ${READY_TIMEOUT_MS / 1000} s (${(err as Error).message})`, { cause: err });
    }
    await sleep(150);
  }
}

const probes: Record<StoreName, (url: string) => Promise<void>> = {
  async mongo(url) {
    const client = new MongoClient(url, { directConnection: true, serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
    try {
      await client.db('admin').command({ ping: 1 });
    } finally {
      await client.close();
    }
  },
  // Redis answers -LOADING while it replays its append-only file.
  redis: (url) => expectLine(url, 'PING\r\n', '+PONG'),
  nats: (url) => expectLine(url, undefined, 'INFO '),
};

function expectLine(url: string, send: string | undefined, prefix: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    let data = '';
    socket.setEncoding('utf8');
    socket.setTimeout(1000, () => socket.destroy(new Error('timed out')));
    socket.on('connect', () => send && socket.write(send));
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\r\n');
      if (end < 0) return;
      socket.destroy();
      const line = data.slice(0, end);
      if (line.startsWith(prefix)) resolve();
      else reject(new Error(`answered ${line.slice(0, 80)}`));
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('connection closed')));
  });
}
