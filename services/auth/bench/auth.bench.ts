// Login throughput and latency of the auth service (argon2id at the configured cost), and what
// checking a token costs the gateway per request. Run with `npm run bench:auth`; it starts and
// stops its own stores and auth process (local mode, with its demo accounts). It prints figures
// only: the logs of the stores and the auth service go to .data/bench/auth/logs.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { tokenVersionKey } from '@ruilplein/contracts';
import { freePort, repoRoot, startStores, type Stores } from '@ruilplein/local';
import { createTokenVerifier } from '@ruilplein/service-kit';
import { argon2id, hash } from 'argon2';
import autocannon from 'autocannon';
import { createClient } from 'redis';
import { DEFAULT_ARGON2_COST } from '../src/accounts/passwords.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/seed/seed.ts';

const LOGIN_SECONDS = 10;
const CONNECTIONS = 8;
const VERIFY_ROUNDS = 5000;

let stores: Stores | undefined;
let child: ChildProcess | undefined;
/** Wiped at each start; after a run it keeps the logs (the stores' data is removed). */
const dataDir = join(repoRoot, '.data', 'bench', 'auth');
const logDir = join(dataDir, 'logs');

async function cleanup() {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
  }
  await stores?.stop();
  for (const store of ['mongo', 'redis', 'nats']) await rm(join(dataDir, store), { recursive: true, force: true });
}

async function startAuth(s: Stores): Promise<string> {
  const port = await freePort();
  child = spawn(process.execPath, [join(repoRoot, 'services/auth/src/main.ts')], {
    env: { PATH: process.env.PATH, MONGODB_URL: s.mongoUrl, NATS_URL: s.natsUrlFor('auth'), REDIS_URL: s.redisUrl, PORT: String(port), RUILPLEIN_MODE: 'local', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(logDir, 'auth.log'), { flags: 'a' });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  child.once('close', () => log.end());
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`auth exited with ${child.exitCode}; see ${join(logDir, 'auth.log')}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return url;
    await sleep(200);
  }
  throw new Error('auth did not get ready within 60 s');
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(logDir, { recursive: true });
  console.log(`logs: ${logDir}`);
  stores = await startStores({ dataDir, envPrefix: false });
  const url = await startAuth(stores);
  const cost = DEFAULT_ARGON2_COST;

  // One hash alone, on this machine: the floor of a login.
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await hash('Ruilen123', { type: argon2id, ...cost });
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);

  // Logins with the right password, spread over the demo accounts (a failure would count against the limits).
  const bodies = DEMO_ACCOUNTS.map((a) => JSON.stringify({ email: a.email, password: DEMO_PASSWORD }));
  let next = 0;
  const result = await autocannon({
    url: `${url}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: CONNECTIONS,
    duration: LOGIN_SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }],
  });
  const failed = result.non2xx + result.errors;

  // The gateway's check per request: signature, expiry, claims (keys cached after the first fetch), then the version in Redis.
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[0] });
  const { token } = (await login.json()) as { token: string };
  const verify = createTokenVerifier(`${url}/.well-known/jwks.json`);
  const redis = createClient({ url: stores.redisUrl });
  await redis.connect();
  const principal = await verify(token);
  let t = performance.now();
  for (let i = 0; i < VERIFY_ROUNDS; i++) await verify(token);
  const signatureUs = ((performance.now() - t) / VERIFY_ROUNDS) * 1000;
  t = performance.now();
  for (let i = 0; i < VERIFY_ROUNDS; i++) {
    await verify(token);
    await redis.get(tokenVersionKey(principal.userId));
  }
  const totalUs = ((performance.now() - t) / VERIFY_ROUNDS) * 1000;
  await redis.quit();

  const header = (await fetch(`${url}/.well-known/jwks.json`).then((r) => r.json())) as { keys: { alg: string }[] };
  console.log(
    [
      '',
      `auth login on ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} cores), store: ${stores.kind.mongo}, loopback`,
      `  argon2id cost: m=${cost.memoryCost} KiB, t=${cost.timeCost}, p=${cost.parallelism} (OWASP's first choice; AUTH_ARGON2_MEMORY_KIB, AUTH_ARGON2_TIME_COST)`,
      `  one hash alone: median ${ms(samples[10]!)}, max ${ms(samples.at(-1)!)}`,
      `  POST /api/auth/login, ${CONNECTIONS} connections, ${LOGIN_SECONDS} s: ${result.requests.average.toFixed(1)} logins/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${failed ? `, ${failed} failed` : ''}`,
      `token check at the gateway (${header.keys[0]?.alg}), per request, ${VERIFY_ROUNDS} rounds:`,
      `  signature + claims: ${signatureUs.toFixed(1)} µs; with the revocation lookup in Redis: ${totalUs.toFixed(1)} µs`,
      '',
    ].join('\n'),
  );
}

try {
  await main();
} finally {
  await cleanup();
}
