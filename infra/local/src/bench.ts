// What the benches (services/*/bench) share: their own stores, service processes started the way
// `npm start` starts them (every store's URL, so a service that needs one more store does not
// break a bench again), their logs in files, and a clean stop, Ctrl-C included. `--smoke` runs
// keep everything in a temp dir, so `npm test` never wipes the logs of a developer's last run.
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@ruilplein/contracts';
import { connectBus, ensureStream } from '@ruilplein/service-kit';
import { startBenchService, type BenchService } from '@ruilplein/service-kit/testing';
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
  const running: BenchService[] = [];
  let stores: Stores | undefined;
  let failed = false;

  const stop = async () => {
    // The last started first: a gateway stops before the service behind it.
    for (const started of running.reverse()) await started.stop();
    await stores?.stop();
    // A failed smoke run keeps its logs (the error names them).
    if (smoke && !failed) await rm(dataDir, { recursive: true, force: true });
    else for (const store of ['mongo', 'redis', 'nats']) await rm(join(dataDir, store), { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));

  const service: Bench['service'] = async (service, env = {}, ready = '/readyz') => {
    const started = await startBenchService({
      name: service,
      main: join(repoRoot, 'services', service, 'src', 'main.ts'),
      port: await freePort(),
      env: {
        MONGODB_URL: stores!.mongoUrl,
        REDIS_URL: stores!.redisUrl,
        ...(onBus(service) && { NATS_URL: stores!.natsUrlFor(service) }),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ...env,
      },
      logDir,
      readyPath: ready,
    });
    running.push(started);
    return { url: started.url, child: started.child };
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
