// What the benches (services/*/bench) share: their own stores, service processes started the way
// `npm start` starts them (every store's URL, so a service that needs one more store does not
// break a bench again), their logs in files, and a clean stop, Ctrl-C included. `--smoke` runs
// keep everything in a temp dir, so `npm test` never wipes the logs of a developer's last run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVICE_NAMES } from '@ruilplein/contracts';
import { connectBus, ensureStream } from '@ruilplein/service-kit';
import { repoRoot } from './paths.ts';
import { freePort, startStores, type Stores } from './stores.ts';

const onBus = (service: string) => (SERVICE_NAMES as readonly string[]).includes(service);

/** `--smoke`: tiny sizes, seconds; the figures are printed all the same (services/*\/test run it). */
export const benchSmoke = () => process.argv.includes('--smoke');

export interface Bench {
  stores: Stores;
  logDir: string;
  /**
   * Starts `services/<name>/src/main.ts` on a free port with the stores' URLs, `HOST`, `PORT` and
   * `env`; resolves to its URL and process once `ready` answers (`/readyz` also waits for the
   * streams of the services it follows, which a bench may not start).
   */
  service(name: string, env?: Record<string, string>, ready?: '/healthz' | '/readyz'): Promise<{ url: string; child: ChildProcess }>;
  /**
   * Creates every service's stream (as the kit's ensureStream does), so a service whose consumers
   * follow another's stream starts without that service running.
   */
  createStreams(): Promise<void>;
}

/**
 * Runs `main` with stores of its own (NATS with a user for each of `services`, the ones it
 * starts, that the registry knows: the gateway uses no NATS) and stops everything afterwards (also on Ctrl-C or an error, which sets the exit code).
 * A full run keeps its logs in `.data/bench/<name>/logs`.
 */
export async function runBench(name: string, services: readonly string[], main: (bench: Bench) => Promise<void>): Promise<void> {
  const smoke = benchSmoke();
  const dataDir = smoke ? await mkdtemp(join(tmpdir(), `ruilplein-bench-${name}-`)) : join(repoRoot, '.data', 'bench', name);
  const logDir = join(dataDir, 'logs');
  const children: ChildProcess[] = [];
  let stores: Stores | undefined;
  let failed = false;

  const stop = async () => {
    // The last started first: a gateway stops before the service behind it.
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      if ((await Promise.race([exited, sleep(10_000, 'timeout')])) === 'timeout') child.kill('SIGKILL');
    }
    await stores?.stop();
    // A failed smoke run keeps its logs (the error names them).
    if (smoke && !failed) await rm(dataDir, { recursive: true, force: true });
    else for (const store of ['mongo', 'redis', 'nats']) await rm(join(dataDir, store), { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));

  const service: Bench['service'] = async (service, env = {}, ready = '/readyz') => {
    const port = await freePort();
    const logFile = join(logDir, `${service}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    const child = spawn(process.execPath, [join(repoRoot, 'services', service, 'src', 'main.ts')], {
      env: {
        PATH: process.env.PATH,
        MONGODB_URL: stores!.mongoUrl,
        REDIS_URL: stores!.redisUrl,
        ...(onBus(service) && { NATS_URL: stores!.natsUrlFor(service) }),
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('close', () => log.end());
    const url = `http://127.0.0.1:${port}`;
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${service} exited with ${child.exitCode}; see ${logFile}`);
      if (await fetch(`${url}${ready}`).then((r) => r.ok, () => false)) return { url, child };
      await sleep(200);
    }
    throw new Error(`${service} did not answer ${ready} within 60 s; see ${logFile}`);
  };

  const createStreams = async () => {
    const bus = await connectBus(stores!.natsUrl, 'bench');
    try {
      for (const stream of SERVICE_NAMES) await ensureStream(bus, stream);
    } finally {
      await bus.nc.close();
    }
  };

  try {
    if (!smoke) await rm(dataDir, { recursive: true, force: true });
    await mkdir(logDir, { recursive: true });
    console.log(`logs: ${logDir}`);
    stores = await startStores({ dataDir, envPrefix: false, natsUsers: services.filter(onBus) });
    await main({ stores, logDir, service, createStreams });
  } catch (err) {
    failed = true;
    console.error(err);
    process.exitCode = 1;
  } finally {
    await stop();
  }
}
