import { freePorts } from '../../cluster/src/ports.ts';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NATS_ADMIN, natsPermissions, registry, SERVICE_NAMES, type ServiceEntry, type ServiceName } from '@ruilplein/contracts';
import { connectBus, type Bus } from '@ruilplein/service-kit';
import { LOCAL_STORES_FILE, type LocalStoresFile } from '@ruilplein/service-kit/deadletter-cli';
import { MongoClient } from 'mongodb';
import { StorageType } from 'nats';
import { hasExited, onOutputLines, spawnChild, stopChild } from './children.ts';
import { dockerAnswers } from './docker.ts';
import { findBinary, toolsDir } from './paths.ts';

export type StoreName = 'mongo' | 'redis' | 'nats';

export interface StoreKinds {
  mongo: 'env' | 'container' | 'mongod' | 'ferretdb';
  redis: 'env' | 'container' | 'redis-server';
  nats: 'env' | 'container' | 'nats-server';
}

export interface Stores {
  mongoUrl: string;
  redisUrl: string;
  /** As the privileged user (tests, tools, the runner) when this runner started NATS with users. */
  natsUrl: string;
  /**
   * The NATS URL a service connects with: as its own user (its rights come from the contracts'
   * registry, see natsServerConfig), or natsUrl when NATS came from the environment (no users imposed).
   */
  natsUrlFor(service: string): string;
  kind: StoreKinds;
  /** With `natsNodes` > 1: the NATS cluster's nodes, each to kill and start again (tests, chaos). */
  natsCluster?: NatsCluster;
  /** The stores this runner started as local servers (not from the environment, not containers, not a cluster), each to kill and start again (chaos). */
  processes: Partial<Record<StoreName, StoreProcess>>;
  stop(): Promise<void>;
}

/** A store's server on this machine, started by this runner. */
export interface StoreProcess {
  running(): boolean;
  /** SIGKILL, as a crash: resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on its port and data; resolves once it answers its protocol's greeting. */
  start(): Promise<void>;
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
  /** Services that get a NATS user of their own (a NATS the runner starts); default NATS_SERVICES. */
  natsUsers?: readonly string[];
  /**
   * NATS servers to start: 1 (default) one server; more, a JetStream cluster of that many local
   * nodes (startNatsCluster; never a container), its URLs comma-separated in natsUrl.
   */
  natsNodes?: number;
}

/** The services that use NATS: every service of the contracts' registry (the gateway does not). */
export const NATS_SERVICES = SERVICE_NAMES;
export { NATS_ADMIN };

export const storeEnv = { mongo: 'MONGODB_URL', redis: 'REDIS_URL', nats: 'NATS_URL' } as const;

interface Started<K> {
  url: string;
  kind: K;
  /** Per user, when the server was started with users (NATS only). */
  userUrls?: Record<string, string>;
  cluster?: NatsCluster;
  /** A local server's process. */
  process?: StoreProcess;
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
  const natsUsers = nats.value.userUrls;
  // For tools (`npm run deadletter`): where this runner's stores are, NATS as the privileged user.
  const forTools: LocalStoresFile = { mongoUrl: mongo.value.url, natsUrl: natsUsers?.[NATS_ADMIN] ?? nats.value.url };
  writeFileSync(join(opts.dataDir, LOCAL_STORES_FILE), `${JSON.stringify(forTools, null, 2)}\n`, { mode: 0o600 });
  return {
    mongoUrl: mongo.value.url,
    redisUrl: redis.value.url,
    natsUrl: natsUsers?.[NATS_ADMIN] ?? nats.value.url,
    natsUrlFor(service) {
      if (!natsUsers) return nats.value.url;
      const url = natsUsers[service];
      if (!url) throw new Error(`NATS has no user ${service}: add it to natsUsers of startStores`);
      return url;
    },
    kind: { mongo: mongo.value.kind, redis: redis.value.kind, nats: nats.value.kind },
    ...(nats.value.cluster && { natsCluster: nats.value.cluster }),
    processes: Object.fromEntries(([['mongo', mongo.value], ['redis', redis.value], ['nats', nats.value]] as const).flatMap(([name, s]) => (s.process ? [[name, s.process]] : []))),
    stop,
  };
}

async function startStore<S extends StoreName>(store: S, opts: StartStoresOptions): Promise<Started<StoreKinds[S]>> {
  const fromEnv = opts.envPrefix === false ? undefined : process.env[(opts.envPrefix ?? '') + storeEnv[store]];
  if (fromEnv) return { url: fromEnv, kind: 'env', stop: async () => {} } as Started<StoreKinds[S]>;
  if (store === 'nats' && (opts.natsNodes ?? 1) > 1) {
    const cluster = await startNatsCluster({
      dataDir: opts.dataDir,
      nodes: opts.natsNodes,
      firstPort: opts.ports?.nats,
      natsUsers: opts.natsUsers,
      log: opts.log,
    });
    return { url: cluster.url, kind: 'nats-server', userUrls: cluster.userUrls, cluster, stop: cluster.stop } as Started<StoreKinds[S]>;
  }
  const started = (await dockerAnswers()) ? await startContainer(store, opts) : await startLocal(store, opts);
  return started as Started<StoreKinds[S]>;
}

const images = {
  mongo: { image: 'mongo:7', port: 27017, command: [] },
  redis: { image: 'redis:7-alpine', port: 6379, command: [] },
  // The alpine image's entrypoint runs the command as given.
  nats: { image: 'nats:2.12-alpine', port: 4222, command: ['nats-server', '-js'] },
} as const;

async function startContainer(store: StoreName, opts: StartStoresOptions): Promise<Started<'container'>> {
  const { GenericContainer } = await import('testcontainers');
  const { image, port, command } = images[store];
  const hostPort = opts.ports?.[store];
  let container = new GenericContainer(image).withExposedPorts(hostPort ? { container: port, host: hostPort } : port);
  // A throw-away container: passwords for this run only.
  const users = store === 'nats' ? natsUsers(undefined, opts.natsUsers) : undefined;
  if (users) {
    const target = '/etc/nats/ruilplein.conf';
    container = container.withCopyContentToContainer([{ content: natsServerConfig(users), target }]).withCommand([...command, '-c', target]);
  } else if (command.length) container = container.withCommand([...command]);
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
  return { url, kind: 'container', stop, ...(users && { userUrls: userUrls(url, users) }) };
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
      // The config holds the users (natsServerConfig); the flags win over it.
      return { kind: 'nats-server', bin: findBinary('nats-server'), args: ['-c', `${dir}.conf`, '-js', '-a', '127.0.0.1', '-p', `${port}`, '-sd', dir] } as const;
  }
}

async function startLocal(store: StoreName, opts: StartStoresOptions): Promise<Started<StoreKinds[StoreName]>> {
  const dir = join(opts.dataDir, store);
  const logDir = join(opts.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const port = opts.ports?.[store] ?? (await freePort());
  const users = store === 'nats' ? natsUsers(opts.dataDir, opts.natsUsers) : undefined;
  if (users) writeFileSync(`${dir}.conf`, natsServerConfig(users), { mode: 0o600 });
  const { kind, bin, args } = localServer(store, dir, port);
  if (!bin) throw new Error(`${kind}: not found in .tools/bin or on the PATH; run \`npm run bootstrap\``);

  const url = `${scheme[store]}://127.0.0.1:${port}`;
  const server = localStoreProcess(store, `${kind} (port ${port})`, bin, args, url, join(logDir, `${store}.log`));
  await server.start();
  return { url, kind, stop: server.stop, process: server, ...(users && { userUrls: userUrls(url, users) }) };
}

/**
 * One store server as a child of this runner: started (resolving once it answers), killed as a
 * crash, started again on the same arguments; its output appended to `logFile`.
 */
function localStoreProcess(store: StoreName, label: string, bin: string, args: readonly string[], url: string, logFile: string): StoreProcess & { stop(): Promise<void> } {
  let child: ChildProcess | undefined;
  const tail: string[] = [];
  const running = () => !!child && !hasExited(child);
  return {
    running,
    async start() {
      if (running()) return;
      const log = createWriteStream(logFile, { flags: 'a' });
      const started = (child = spawnChild(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
      onOutputLines(started, (line) => {
        log.write(`${line}\n`);
        tail.push(line);
        if (tail.length > 15) tail.shift();
      });
      started.once('close', () => log.end());
      try {
        await waitReady(store, url, started);
      } catch (err) {
        await stopChild(started);
        throw new Error(`${label} did not come up: ${(err as Error).message}\n  last output (${logFile}):\n    ${tail.join('\n    ')}`, { cause: err });
      }
    },
    async kill() {
      if (!child || !running()) return;
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
    stop: async () => {
      if (child) await stopChild(child);
    },
  };
}

type NatsUsers = Record<string, string>;

/**
 * A password per user: kept in `<dataDir>/nats-users.json` (like the token key, so a service
 * restarted by hand still connects); made afresh without a data dir. Users missing from the
 * file are added.
 */
function natsUsers(dataDir: string | undefined, services: readonly string[] = NATS_SERVICES): NatsUsers {
  const file = dataDir && join(dataDir, 'nats-users.json');
  const kept: NatsUsers = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as NatsUsers) : {};
  const users: NatsUsers = {};
  for (const user of [NATS_ADMIN, ...services]) users[user] = kept[user] ?? randomBytes(24).toString('base64url');
  if (file && Object.keys(users).some((u) => !kept[u])) writeFileSync(file, JSON.stringify({ ...kept, ...users }, null, 2), { mode: 0o600 });
  return users;
}

/** `url` may be a comma-separated list (a cluster's servers): each gets the user. */
function userUrls(url: string, users: NatsUsers): Record<string, string> {
  const withUser = (user: string) =>
    url
      .split(',')
      .map((u) => u.replace('://', `://${encodeURIComponent(user)}:${users[user]}@`))
      .join(',');
  return Object.fromEntries(Object.keys(users).map((user) => [user, withUser(user)]));
}

/**
 * nats-server reads JSON as configuration. Each service's rights come from its registry entry
 * (the contracts' natsPermissions), as the umbrella chart's do; `entries` stands in for the
 * registry in tests.
 */
export function natsServerConfig(users: NatsUsers, entries: Readonly<Record<string, Pick<ServiceEntry, 'name' | 'nats'>>> = registry): string {
  return `${JSON.stringify(natsAuthorization(users, entries), null, 2)}\n`;
}

function natsAuthorization(users: NatsUsers, entries: Readonly<Record<string, Pick<ServiceEntry, 'name' | 'nats'>>> = registry) {
  const list = Object.entries(users).map(([user, password]) => {
    if (user === NATS_ADMIN) return { user, password };
    const entry = entries[user as ServiceName];
    if (!entry) throw new Error(`NATS user ${user}: no service of that name in the contracts' registry (packages/contracts/src/registry.ts)`);
    return { user, password, permissions: natsPermissions(entry) };
  });
  return { authorization: { users: list } };
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

/** Where Jaeger listens: its usual ports under `npm start`, free ones in tests. */
export interface JaegerPorts {
  /** UI and query API (`/api/traces/<id>`). */
  ui: number;
  /** The query service's gRPC API. */
  queryGrpc: number;
  /** OTLP in: gRPC and HTTP. */
  otlpGrpc: number;
  otlpHttp: number;
}

export const JAEGER_FIXED_PORTS: JaegerPorts = { ui: 16686, queryGrpc: 16685, otlpGrpc: 4317, otlpHttp: 4318 };

export interface Jaeger {
  /** The UI: `http://127.0.0.1:16686`. */
  url: string;
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (OTLP/HTTP). */
  otlpHttpUrl: string;
  ports: JaegerPorts;
  stop(): Promise<void>;
}

/** A built Jaeger UI to serve instead of the placeholder page the Go module alone has (see bootstrap.ts). */
export const jaegerUiAssets = (): string | undefined =>
  [process.env.JAEGER_UI_ASSETS, join(toolsDir, 'jaeger-ui')].find((dir) => dir && existsSync(join(dir, 'index.html')));

/**
 * Jaeger v2's configuration: OTLP in (gRPC and HTTP), kept in memory (the newest 100,000 traces,
 * gone when it stops), the UI and query API; everything on 127.0.0.1, its own telemetry off.
 */
export function jaegerConfig(ports: JaegerPorts, uiAssets = jaegerUiAssets()): string {
  return `# Written by infra/local (stores.ts startJaeger) at each start.
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    resource:
      service.name: jaeger
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
  jaeger_query:
    storage:
      traces: memstore
    enable_tracing: false
    http:
      endpoint: 127.0.0.1:${ports.ui}
    grpc:
      endpoint: 127.0.0.1:${ports.queryGrpc}
${uiAssets ? `    ui:\n      assets_path: ${JSON.stringify(uiAssets)}\n` : ''}receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:${ports.otlpGrpc}
      http:
        endpoint: 127.0.0.1:${ports.otlpHttp}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

/**
 * Starts Jaeger v2 (built into .tools/bin by bootstrap.ts) with in-memory storage; resolves once
 * its query API answers. Its log goes to `<dataDir>/logs/jaeger.log`.
 */
export async function startJaeger(opts: { dataDir: string; ports?: JaegerPorts }): Promise<Jaeger> {
  const bin = findBinary('jaeger');
  if (!bin) throw new Error('jaeger: not found in .tools/bin or on the PATH; run `npm run bootstrap`');
  const ports = opts.ports ?? { ui: await freePort(), queryGrpc: await freePort(), otlpGrpc: await freePort(), otlpHttp: await freePort() };
  const logDir = join(opts.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const config = join(opts.dataDir, 'jaeger.yaml');
  writeFileSync(config, jaegerConfig(ports));
  const logFile = join(logDir, 'jaeger.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const tail: string[] = [];
  const child = spawnChild(bin, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  onOutputLines(child, (line) => {
    log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 15) tail.shift();
  });
  child.once('close', () => log.end());
  const url = `http://127.0.0.1:${ports.ui}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const answered = await fetch(`${url}/api/services`, { signal: AbortSignal.timeout(1000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (answered) break;
    if (hasExited(child) || Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`jaeger (UI port ${ports.ui}) did not come up\n  last output (${logFile}):\n    ${tail.join('\n    ')}`);
    }
    await sleep(200);
  }
  return { url, otlpHttpUrl: `http://127.0.0.1:${ports.otlpHttp}`, ports, stop: () => stopChild(child) };
}

/** One server of a local NATS cluster. */
export interface NatsNode {
  /** Its server_name: `n1`, `n2`… */
  name: string;
  /** Its client URL, without user. */
  url: string;
  running(): boolean;
  /** SIGKILL, as a crash: resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on its ports and data; resolves once it answers clients. */
  start(): Promise<void>;
}

export interface NatsCluster {
  /** Every node's client URL, comma-separated, without user (the kit's connectBus takes the list). */
  url: string;
  /** Per user, the same list with the user's credentials on each URL. */
  userUrls: Record<string, string>;
  nodes: readonly NatsNode[];
  stop(): Promise<void>;
}

export interface NatsClusterOptions {
  /** Each node keeps its JetStream data in `<dataDir>/nats-cluster/<name>`, its output in `<dataDir>/logs/nats-<name>.log`. */
  dataDir: string;
  /** Default 3: JetStream needs a majority of the nodes for a stream of as many replicas. */
  nodes?: number;
  /** Node i's client port is firstPort + i, its route port firstPort + 2000 + i; free ports otherwise. */
  firstPort?: number;
  natsUsers?: readonly string[];
  log?: (line: string) => void;
}

const CLUSTER_NAME = 'ruilplein';

/**
 * A JetStream cluster of local nats-servers (built by bootstrap.ts): each node its own
 * `server_name`, client port, route port and `store_dir`, routes to every node, the users of
 * natsServerConfig. Resolves once the cluster places a stream on every node (a meta leader is
 * elected and every peer has joined).
 */
export async function startNatsCluster(opts: NatsClusterOptions): Promise<NatsCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNatsClusterOnce(opts);
    } catch (err) {
      // A free port handed out here may be taken by something else before the node binds it.
      if (opts.firstPort || attempt >= 3 || !String((err as Error).message).includes('address already in use')) throw err;
      opts.log?.(`nats: a port was taken while the cluster started; again on other ports`);
    }
  }
}

async function startNatsClusterOnce(opts: NatsClusterOptions): Promise<NatsCluster> {
  const size = opts.nodes ?? 3;
  const bin = findBinary('nats-server');
  if (!bin) throw new Error('nats-server: not found in .tools/bin or on the PATH; run `npm run bootstrap`');
  const users = natsUsers(opts.dataDir, opts.natsUsers);
  const logDir = join(opts.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const free = opts.firstPort ? [] : await freePorts(size * 2);
  const ports = Array.from({ length: size }, (_, i) =>
    opts.firstPort ? { client: opts.firstPort + i, route: opts.firstPort + 2000 + i } : { client: free[2 * i]!, route: free[2 * i + 1]! },
  );
  const routes = ports.map((p) => `nats-route://127.0.0.1:${p.route}`);
  const nodes = ports.map((p, i) => {
    const name = `n${i + 1}`;
    const storeDir = join(opts.dataDir, 'nats-cluster', name);
    mkdirSync(storeDir, { recursive: true });
    const conf = join(opts.dataDir, `nats-${name}.conf`);
    const config = {
      server_name: name,
      listen: `127.0.0.1:${p.client}`,
      jetstream: { store_dir: storeDir },
      cluster: { name: CLUSTER_NAME, listen: `127.0.0.1:${p.route}`, routes: routes.filter((_, j) => j !== i) },
      ...natsAuthorization(users),
    };
    writeFileSync(conf, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    return localNatsNode(name, bin, conf, `nats://127.0.0.1:${p.client}`, join(logDir, `nats-${name}.log`));
  });
  const url = nodes.map((n) => n.url).join(',');
  const cluster: NatsCluster = {
    url,
    userUrls: userUrls(url, users),
    nodes,
    stop: () => Promise.all(nodes.map((n) => n.stop())).then(() => undefined),
  };
  try {
    await Promise.all(nodes.map((n) => n.start()));
    await waitClusterReady(cluster.userUrls[NATS_ADMIN]!, size);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  opts.log?.(`nats: cluster of ${size} (${nodes.map((n) => `${n.name} ${n.url}`).join(', ')})`);
  return cluster;
}

function localNatsNode(name: string, bin: string, conf: string, url: string, logFile: string): NatsNode & { stop(): Promise<void> } {
  return { name, url, ...localStoreProcess('nats', `nats-server ${name} (${url})`, bin, ['-c', conf], url, logFile) };
}

/** Until a stream with a replica on every node can be made (and is removed again). */
async function waitClusterReady(adminUrl: string, size: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS * 2;
  const name = `ready-${randomBytes(4).toString('hex')}`;
  let bus: Bus | undefined;
  try {
    for (;;) {
      try {
        // Connecting asks JetStream for the account: no answer before a meta leader is elected.
        bus ??= await connectBus(adminUrl, 'ruilplein-local-ready');
        await bus.jsm.streams.add({ name, subjects: [`_ruilplein.${name}`], num_replicas: size, storage: StorageType.Memory });
        await bus.jsm.streams.delete(name);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`the NATS cluster did not place a stream on ${size} nodes within ${(READY_TIMEOUT_MS * 2) / 1000} s: ${(err as Error).message}`, { cause: err });
      }
      await sleep(250);
    }
  } finally {
    await bus?.nc.close();
  }
}
