// The whole platform on this machine: frontends built, stores, every service, the edge. One code
// path for `npm start` (fixed ports, .data/) and the browser tests (free ports, a temp dir).
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { localPorts, SERVICE_NAMES, upstreamVariable } from '@ruilplein/contracts';
import { startTelemetry, traceProxy } from '@ruilplein/service-kit';
import { hasExited, onOutputLines, spawnChild, stopChild } from './children.ts';
import { createEdge, type Edge } from './edge.ts';
import { buildStaleFrontends, frontends, remoteDists, shellDist, type Frontend } from './frontends.ts';
import { repoRoot } from './paths.ts';
import { freePort, JAEGER_FIXED_PORTS, startJaeger, startStores, type Jaeger, type StoreName, type Stores } from './stores.ts';

/** The ports of `npm start` (README "What `npm start` starts"); the services' come from the contracts registry. */
export const fixedPorts = {
  edge: 8080,
  services: localPorts as Record<string, number>,
  stores: { mongo: 27117, redis: 6479, nats: 4322 } as Record<StoreName, number>,
};
const domainServices = SERVICE_NAMES;
/** The registry's services use NATS, each as its own user; the gateway does not. */
const usesNats = (name: string) => (domainServices as readonly string[]).includes(name);
const servicesDir = join(repoRoot, 'services');
const UP_WITHIN_MS = 60_000;

export interface PlatformOptions {
  /** Local stores keep their data here; every log (stores, services, builds) goes to `<dataDir>/logs`. */
  dataDir: string;
  /** 'fixed': the README's ports (the edge on `edgePort`, default 8080). 'free': any free ports, so tests run next to a running `npm start`. */
  ports: 'fixed' | 'free';
  edgePort?: number;
  /** First build every frontend whose dist is missing or older than its sources. */
  build: boolean;
  /** As in startStores: '' reads MONGODB_URL…, 'TEST_' reads TEST_MONGODB_URL…, false starts fresh stores. */
  envPrefix?: string | false;
  log?: (line: string) => void;
  /** Every output line of a service (they also go to `<dataDir>/logs/<service>.log`). */
  onServiceLine?: (service: string, line: string) => void;
  /** A service died after the platform was up (during startup, startPlatform fails instead). */
  onServiceExit?: (service: string, why: string) => void;
  /** Aborting stops whatever has started and makes startPlatform reject. */
  signal?: AbortSignal;
  /**
   * Start Jaeger (stores.ts startJaeger) and send it every service's traces and the edge's
   * (`npm start`); its ports are fixed with 'fixed'. Tests leave it off: they need no Jaeger.
   */
  traces?: boolean;
  /**
   * Instances of every service (default 1). More than one: the clustered mode of
   * `npm start -- --replicas 2`: each domain service that many times behind the gateways (their
   * UPSTREAM_<SERVICE> lists them all), the gateway that many times behind the edge, a three-node
   * NATS cluster and every stream at three replicas.
   */
  replicas?: number;
}

/** NATS nodes, and copies of each stream, in the clustered mode. */
export const CLUSTER_NATS_NODES = 3;

/** The file whose number (milliseconds) every service of a local platform adds to its clock. */
export const clockFileOf = (dataDir: string) => join(dataDir, 'clock-offset-ms');

export interface RunningService {
  name: string;
  /** 1, 2…: which instance of the service (the clustered mode runs several). */
  replica: number;
  url: string;
  /** The instance's process (a new one after `restart`). */
  child: ChildProcess;
  /** SIGKILL, as a crash (chaos): resolves once the process is gone. */
  kill(): Promise<void>;
  /**
   * Starts the instance again after it exited (same port, environment and log file); resolves
   * once it is spawned, not once it answers: the caller waits for /healthz or /readyz.
   */
  restart(): void;
}

export interface Platform {
  /** The browser's origin: `http://localhost:<edge port>`. */
  url: string;
  edge: Edge;
  stores: Stores;
  services: readonly RunningService[];
  frontends: readonly Frontend[];
  /** With `traces`: the trace viewer. */
  jaeger?: Jaeger;
  dataDir: string;
  /** Edge, then services, then stores; safe to call more than once. */
  stop(): Promise<void>;
}

export async function startPlatform(opts: PlatformOptions): Promise<Platform> {
  const log = opts.log ?? (() => {});
  const logDir = join(opts.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const signal = opts.signal;

  // What has started, to stop in reverse order.
  const stack: Array<() => Promise<void>> = [];
  let unwinding = Promise.resolve();
  const unwind = () =>
    (unwinding = unwinding.then(async () => {
      for (let step = stack.pop(); step; step = stack.pop()) await step().catch((err: unknown) => log(`while stopping: ${String(err)}`));
    }));
  // Only a service dying while the platform is up is news for onServiceExit.
  const state = { up: false, stopped: false };
  const services: StartedService[] = [];
  const onAbort = () => void unwind();
  signal?.addEventListener('abort', onAbort, { once: true });
  const checkAbort = () => signal?.throwIfAborted();

  try {
    checkAbort();
    if (opts.build) {
      await buildStaleFrontends({
        logDir,
        log,
        onChild: (child) => {
          const stop = () => stopChild(child, 5000, { group: true });
          stack.push(stop);
          child.once('exit', () => stack.includes(stop) && stack.splice(stack.indexOf(stop), 1));
        },
      });
      checkAbort();
    }
    for (const f of frontends) if (!existsSync(f.marker)) log(`${f.package} is not built (no ${f.marker}): run \`npm run build -w ${f.package}\``);

    const names = findServices(log);
    // Each service its own NATS user, its rights from the contracts registry (contracts nats.ts);
    // the gateway uses no NATS.
    const natsUsers = names.filter(usesNats);
    const replicas = Math.max(1, opts.replicas ?? 1);
    const clustered = replicas > 1;
    const stores = await startStores({
      dataDir: opts.dataDir,
      ports: opts.ports === 'fixed' ? fixedPorts.stores : {},
      envPrefix: opts.envPrefix,
      log,
      natsUsers,
      ...(clustered && { natsNodes: CLUSTER_NATS_NODES }),
    });
    stack.push(() => stores.stop());
    checkAbort();

    let jaeger: Jaeger | undefined;
    if (opts.traces) {
      jaeger = await startJaeger({ dataDir: opts.dataDir, ports: opts.ports === 'fixed' ? JAEGER_FIXED_PORTS : undefined });
      stack.push(() => jaeger!.stop());
      log(`jaeger: ${jaeger.url}`);
      // The edge is the first hop of every trace; it exports as the services do.
      const stopTelemetry = startTelemetry('edge', jaeger.otlpHttpUrl);
      stack.push(stopTelemetry);
      checkAbort();
    }

    const ports: Record<string, number> = {};
    for (const name of [...new Set([...names, ...domainServices, 'gateway'])]) ports[name] = opts.ports === 'fixed' ? fixedPorts.services[name]! : await freePort();
    // The first instance on the service's own port, the others on free ones (only the gateway, or
    // for the gateway's the edge, calls them).
    const instancePorts: Record<string, number[]> = {};
    for (const name of Object.keys(ports)) {
      instancePorts[name] = [ports[name]!];
      for (let i = 1; i < replicas; i++) instancePorts[name].push(await freePort());
    }
    const serviceUrl = (name: string) => `http://127.0.0.1:${ports[name]}`;
    // Known before the services start: mails link to the browser's origin.
    const edgePort = opts.ports === 'fixed' ? (opts.edgePort ?? fixedPorts.edge) : await freePort();
    const local = { publicUrl: `http://localhost:${edgePort}`, jwtKey: localJwtKey(opts.dataDir) };
    for (const name of names) {
      instancePorts[name]!.forEach((port, i) => {
        const instance = { replica: i + 1, port };
        services.push(startService(name, instance, instancePorts, stores, logDir, opts, { ...local, otlp: jaeger?.otlpHttpUrl, clustered }, () => state.up && !state.stopped));
      });
    }
    stack.push(() => Promise.all(services.map((s) => stopChild(s.child, 10_000))).then(() => undefined));

    const gatewayUrls = instancePorts.gateway!.map((port) => `http://127.0.0.1:${port}`).join(',');
    const edge = createEdge({ gatewayUrl: gatewayUrls, shellDir: shellDist(), remotes: remoteDists(), mailUrl: serviceUrl('auth') });
    if (jaeger) traceProxy(edge, toGateway);
    const sockets = new Set<Socket>();
    edge.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      edge.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new Error(`port ${edgePort} is in use; stop what uses it or set PORT`) : err),
      );
      edge.listen(edgePort, '127.0.0.1', resolve);
    });
    stack.push(async () => {
      // Upgraded websockets are no longer the http server's, so close() alone would wait for them.
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => edge.close(resolve));
    });
    checkAbort();

    await waitHealthy(services, logDir, signal);
    checkAbort();

    state.up = true;
    let stopping: Promise<void> | undefined;
    return {
      url: `http://localhost:${(edge.address() as AddressInfo).port}`,
      edge,
      stores,
      services,
      frontends,
      jaeger,
      dataDir: opts.dataDir,
      stop: () => {
        state.stopped = true;
        return (stopping ??= unwind());
      },
    };
  } catch (err) {
    state.stopped = true;
    await unwind();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Every folder of services/ with a src/main.ts, in the order of its port. */
function findServices(log: (line: string) => void): string[] {
  const names = readdirSync(servicesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(servicesDir, d.name, 'src', 'main.ts')))
    .map((d) => d.name);
  for (const name of names.filter((n) => !fixedPorts.services[n])) log(`services/${name}: not in the contracts registry (packages/contracts/src/registry.ts), not started`);
  return names.filter((n) => fixedPorts.services[n]).sort((a, b) => fixedPorts.services[a]! - fixedPorts.services[b]!);
}

interface StartedService extends RunningService {
  /** Its last lines, for the error when it does not come up. */
  tail: string[];
}

/**
 * The auth service's token signing key, made once per data dir so sessions survive a restart
 * (the browser tests get a fresh one with their temp dir).
 */
function localJwtKey(dataDir: string): string {
  const file = join(dataDir, 'auth-jwt-key.pem');
  if (!existsSync(file)) writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return readFileSync(file, 'utf8');
}

/** The label of an instance in logs and messages: `listing`, then `listing-2`… */
export const instanceLabel = (name: string, replica: number) => (replica === 1 ? name : `${name}-${replica}`);

function startService(
  name: string,
  instance: { replica: number; port: number },
  ports: Record<string, number[]>,
  stores: Stores,
  logDir: string,
  opts: PlatformOptions,
  local: { publicUrl: string; jwtKey: string; otlp: string | undefined; clustered: boolean },
  reportExit: () => boolean,
): StartedService {
  const label = instanceLabel(name, instance.replica);
  // Every instance of each service; the gateway takes turns over them (one URL: as always).
  const upstreams = Object.fromEntries(domainServices.map((d) => [upstreamVariable(d), ports[d]!.map((p) => `http://127.0.0.1:${p}`).join(',')]));
  // Not the test runner's own variables: a service under `npm test` runs as under `npm start`.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST'));
  const spawnInstance = () => spawnChild(process.execPath, ['src/main.ts'], {
    cwd: join(servicesDir, name),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      PORT: `${instance.port}`,
      // Not a public server: only the edge listens for the browser, and it is the one hop in front
      // of the gateway (edge, gateway: two in front of a service).
      HOST: '127.0.0.1',
      TRUSTED_PROXY_HOPS: name === 'gateway' ? '1' : '2',
      MONGODB_URL: stores.mongoUrl,
      REDIS_URL: stores.redisUrl,
      ...(usesNats(name) && { NATS_URL: stores.natsUrlFor(name) }),
      AUTH_JWKS_URL: `http://127.0.0.1:${ports.auth![0]}/.well-known/jwks.json`,
      // Clustered: every stream (and so every durable) on all three NATS nodes (service-kit nats.ts).
      ...(local.clustered && usesNats(name) && { NATS_STREAM_REPLICAS: `${CLUSTER_NATS_NODES}` }),
      ...upstreams,
      RUILPLEIN_MODE: 'local',
      // Journeys move the clock for suspensions and Premium periods that end by themselves (service-kit clock.ts).
      RUILPLEIN_CLOCK_FILE: clockFileOf(opts.dataDir),
      PUBLIC_URL: local.publicUrl,
      ...(name === 'auth' && { AUTH_JWT_PRIVATE_KEY: local.jwtKey }),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // Traces to Jaeger (OTLP/HTTP); it takes no metrics, so those stay home unless asked for
      // (OTEL_METRICS_EXPORTER=prometheus with a port per service, service-kit telemetry.ts).
      ...(local.otlp && { OTEL_EXPORTER_OTLP_ENDPOINT: local.otlp, OTEL_METRICS_EXPORTER: process.env.OTEL_METRICS_EXPORTER ?? 'none' }),
    },
  });
  const tail: string[] = [];
  const watch = (child: ChildProcess) => {
    const file = createWriteStream(join(logDir, `${label}.log`), { flags: 'a' });
    onOutputLines(child, (line) => {
      file.write(`${line}\n`);
      tail.push(line);
      if (tail.length > 20) tail.shift();
      opts.onServiceLine?.(label, line);
    });
    child.once('close', () => file.end());
    child.once('exit', (code, sig) => {
      if (reportExit()) opts.onServiceExit?.(label, sig ?? `code ${code}`);
    });
    return child;
  };
  const service: StartedService = {
    name,
    replica: instance.replica,
    url: `http://127.0.0.1:${instance.port}`,
    child: watch(spawnInstance()),
    tail,
    async kill() {
      const child = service.child;
      if (hasExited(child)) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
    restart() {
      if (!hasExited(service.child)) throw new Error(`${label} still runs: kill it first`);
      service.child = watch(spawnInstance());
    },
  };
  return service;
}

async function waitHealthy(services: StartedService[], logDir: string, signal: AbortSignal | undefined) {
  const deadline = Date.now() + UP_WITHIN_MS;
  let waiting = services;
  while (waiting.length) {
    signal?.throwIfAborted();
    const dead = waiting.find((s) => hasExited(s.child));
    if (dead) {
      await sleep(100); // its last words
      const why = dead.child.signalCode ?? `code ${dead.child.exitCode}`;
      const label = instanceLabel(dead.name, dead.replica);
      throw new Error(`${label} exited while starting (${why}); last output (${join(logDir, `${label}.log`)}):\n    ${dead.tail.join('\n    ')}`);
    }
    const answers = await Promise.all(waiting.map((s) => healthy(s.url)));
    waiting = waiting.filter((_, i) => !answers[i]);
    if (!waiting.length) return;
    if (Date.now() > deadline) {
      const labels = waiting.map((s) => instanceLabel(s.name, s.replica));
      const tails = waiting.map((s, i) => `  ${labels[i]} (${join(logDir, `${labels[i]}.log`)}):\n    ${s.tail.join('\n    ')}`);
      throw new Error(`no answer on /healthz within ${UP_WITHIN_MS / 1000} s from: ${labels.join(', ')}\n${tails.join('\n')}`);
    }
    await sleep(300);
  }
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

// The edge (edge.ts) proxies these to the gateway; its other answers are files.
const GATEWAY_PREFIXES = ['/api', '/chathub', '/notificationhub', '/uploads'];
const toGateway = (path: string) => GATEWAY_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
