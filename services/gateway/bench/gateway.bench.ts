// GET /api/category straight to the listing service and through the gateway, on loopback.
// Run with `npm run bench:gateway`; it starts and stops its own stores and services. It prints
// figures only: the logs of the stores and services go to .data/bench/gateway/logs.
// `--smoke` (services/gateway/test/bench.int.test.ts): a second per run, the same figures.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { benchSmoke, runBench, type Bench } from '@ruilplein/local';
import autocannon from 'autocannon';

const SMOKE = benchSmoke();
/** Fixed rates as shares of what the service sustains alone: above it they would measure its queue. */
const RATE_SHARES = SMOKE ? [0.5] : [0.25, 0.5, 0.75];
const RATE_SECONDS = SMOKE ? 1 : 10;
const MAX_SECONDS = SMOKE ? 1 : 10;
const WARM_SECONDS = SMOKE ? 1 : 5;
const MAX_CONNECTIONS = SMOKE ? 5 : 50;
const PATH = '/api/category';
// Nothing listens there: the category list is public, so no key is ever fetched.
const JWKS = 'http://127.0.0.1:9/.well-known/jwks.json';

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
  // A smoke run must measure answers, not errors.
  if (SMOKE && (failed || !times.length)) throw new Error(`${url}${PATH}: ${failed} of ${result.requests.total} requests failed`);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), rps: result.requests.average };
}

async function main({ service, createStreams }: Bench) {
  // The listing service follows auth's stream (and others'): they exist without those services.
  await createStreams();
  const direct = (await service('listing', { AUTH_JWKS_URL: JWKS })).url;
  const gateway = (
    await service('gateway', {
      AUTH_JWKS_URL: JWKS,
      UPSTREAM_LISTING: direct,
      RATE_LIMIT_PER_IP: '1000000000',
      RATE_LIMIT_PER_USER: '1000000000',
    })
  ).url;
  for (const url of [direct, gateway]) {
    const res = await fetch(`${url}${PATH}`);
    if (!res.ok) throw new Error(`${url}${PATH} answered ${res.status}`);
  }

  const loadAtStart = loadavg()[0]!.toFixed(2);
  console.log('warming up…');
  for (const url of [direct, gateway]) await load(url, { seconds: WARM_SECONDS, connections: 10 });

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

await runBench('gateway', ['listing', 'gateway'], main);
