// GET /api/category straight to the listing service and through the gateway, on loopback.
// Run with `npm run bench:gateway`; it starts and stops its own stores and services. It prints
// figures only: the logs of the stores and services go to .data/bench/gateway/logs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot, startStores, type Stores } from '@ruilplein/local';
import autocannon from 'autocannon';

/** Fixed rates as shares of what the service sustains alone: above it they would measure its queue. */
const RATE_SHARES = [0.25, 0.5, 0.75];
const RATE_SECONDS = 10;
const MAX_SECONDS = 10;
const MAX_CONNECTIONS = 50;
const PATH = '/api/category';
// Nothing listens there: the category list is public, so no key is ever fetched.
const JWKS = 'http://127.0.0.1:9/.well-known/jwks.json';

const children: ChildProcess[] = [];
let stores: Stores | undefined;
/** Wiped at each start; after a run it keeps the logs (the stores' data is removed). */
const dataDir = join(repoRoot, '.data', 'bench', 'gateway');
const logDir = join(dataDir, 'logs');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startService(name: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(repoRoot, 'services', name, 'src', 'main.ts')], {
    env: { ...process.env, ...env, PORT: String(port), AUTH_JWKS_URL: JWKS, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once('close', () => log.end());
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${join(logDir, `${name}.log`)}`);
    const healthy = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (healthy) return url;
    await sleep(200);
  }
  throw new Error(`${name} did not answer /healthz within 60 s`);
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if ((await Promise.race([exited, sleep(10_000, 'timeout')])) === 'timeout') child.kill('SIGKILL');
}

async function cleanup() {
  // Gateway first, so the service is not stopped under requests still coming through it.
  for (const child of children.reverse()) await stopChild(child);
  await stores?.stop();
  for (const store of ['mongo', 'redis', 'nats']) await rm(join(dataDir, store), { recursive: true, force: true });
}

async function load(url: string, options: { rate?: number; seconds: number; connections: number }) {
  // autocannon's own percentiles are whole milliseconds; on loopback both sides answer within a
  // few, so a ratio of those says little. Each answer's own time (ms, fractional) is kept instead.
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      { url: `${url}${PATH}`, connections: options.connections, duration: options.seconds, ...(options.rate && { overallRate: options.rate }) },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    run.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
  const failed = result.non2xx + result.errors;
  if (failed) console.warn(`  ${url}: ${failed} failed of ${result.requests.total}`);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), rps: result.requests.average };
}

async function main() {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  console.log(`logs: ${logDir}`);
  stores = await startStores({ dataDir, envPrefix: false });
  const direct = await startService('listing', { MONGODB_URL: stores.mongoUrl, NATS_URL: stores.natsUrlFor('listing') });
  const gateway = await startService('gateway', {
    REDIS_URL: stores.redisUrl,
    UPSTREAM_LISTING: direct,
    RATE_LIMIT_PER_IP: '1000000000',
    RATE_LIMIT_PER_USER: '1000000000',
  });
  for (const url of [direct, gateway]) {
    const res = await fetch(`${url}${PATH}`);
    if (!res.ok) throw new Error(`${url}${PATH} answered ${res.status}`);
  }

  const loadAtStart = loadavg()[0]!.toFixed(2);
  console.log('warming up…');
  for (const url of [direct, gateway]) await load(url, { seconds: 5, connections: 10 });

  const rows: string[][] = [];
  const p99Ratios: number[] = [];
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const ms = (r: { p50: number; p99: number }) => `${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} ms`;
  console.log(`as fast as possible, ${MAX_CONNECTIONS} connections for ${MAX_SECONDS} s, each way…`);
  const dMax = await load(direct, { seconds: MAX_SECONDS, connections: MAX_CONNECTIONS });
  const gMax = await load(gateway, { seconds: MAX_SECONDS, connections: MAX_CONNECTIONS });
  for (const rate of RATE_SHARES.map((share) => Math.max(10, Math.round((dMax.rps * share) / 10) * 10))) {
    console.log(`${rate} req/s for ${RATE_SECONDS} s, each way…`);
    const d = await load(direct, { rate, seconds: RATE_SECONDS, connections: 20 });
    const g = await load(gateway, { rate, seconds: RATE_SECONDS, connections: 20 });
    // Above what it sustains, a side falls behind the rate: its latencies are then those of a queue.
    const reached = (r: { rps: number }) => (r.rps < rate * 0.95 ? ` (reached ${Math.round(r.rps)} req/s)` : '');
    rows.push([`${rate} req/s`, ms(d) + reached(d), ms(g) + reached(g), `p99 ${ratio(g.p99, d.p99)}`]);
    p99Ratios.push(g.p99 / d.p99);
  }
  rows.push(['max', `${Math.round(dMax.rps)} req/s, ${ms(dMax)}`, `${Math.round(gMax.rps)} req/s, ${ms(gMax)}`, `throughput ${ratio(gMax.rps, dMax.rps)}`]);

  const table = [['load', 'direct p50 / p99', 'gateway p50 / p99', 'gateway / direct'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const load1 = loadavg()[0]!.toFixed(2);
  console.log(`\nGET ${PATH} on ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), load average ${loadAtStart} at the start, ${load1} at the end`);
  for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
  const worstP99 = Math.max(...p99Ratios);
  console.log(
    `goal: direct ≥ 3000 req/s (${verdict(dMax.rps >= 3000)}); gateway p99 ≤ 1.3× of direct at each rate ` +
      `(${verdict(worstP99 <= 1.3)}, worst ${worstP99.toFixed(2)}×), throughput ≥ 0.6× (${verdict(gMax.rps >= 0.6 * dMax.rps)})`,
  );
}

process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
try {
  await main();
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
