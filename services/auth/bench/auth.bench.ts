// Login throughput and latency of the auth service (argon2id at the configured cost), and what
// checking a token costs the gateway per request. Run with `npm run bench:auth`; it starts and
// stops its own stores and auth process (local mode, with its demo accounts). It prints figures
// only: the logs of the stores and the auth service go to .data/bench/auth/logs.
// `--smoke` (services/auth/test/bench.int.test.ts): a second of logins, the same figures.
import { availableParallelism, cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { tokenVersionKey } from '@ruilplein/contracts';
import { DEMO_MEMBERS, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { benchSmoke, runBench, type Bench } from '@ruilplein/local';
import { createTokenVerifier } from '@ruilplein/service-kit';
import { argon2id, hash } from 'argon2';
import autocannon from 'autocannon';
import { createClient } from 'redis';
import { DEFAULT_ARGON2_COST } from '../src/accounts/passwords.ts';

const SMOKE = benchSmoke();
const HASHES = SMOKE ? 3 : 20;
const LOGIN_SECONDS = SMOKE ? 1 : 10;
const CONNECTIONS = SMOKE ? 2 : 8;
const VERIFY_ROUNDS = SMOKE ? 50 : 5000;

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main({ stores, service, createStreams }: Bench) {
  // Auth follows other services' streams (membership, counts): they exist without those services.
  await createStreams();
  const { url } = await service('auth', { RUILPLEIN_MODE: 'local' });
  const cost = DEFAULT_ARGON2_COST;

  // One hash alone, on this machine: the floor of a login.
  const samples: number[] = [];
  for (let i = 0; i < HASHES; i++) {
    const t = performance.now();
    await hash('Ruilen123', { type: argon2id, ...cost });
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);

  // Logins with the right password, spread over the demo accounts (a failure would count against the limits).
  const bodies = Object.values(DEMO_MEMBERS).map((a) => JSON.stringify({ email: a.email, password: DEMO_PASSWORD }));
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
  // A smoke run must measure logins, not refusals.
  if (SMOKE && (failed || !result.requests.total)) throw new Error(`${failed} of ${result.requests.total} logins failed`);

  // The gateway's check per request: signature, expiry, claims (keys cached after the first fetch), then the version in Redis.
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[0] });
  if (!login.ok) throw new Error(`login answered ${login.status}`);
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
      `  one hash alone: median ${ms(samples[Math.floor(samples.length / 2)]!)}, max ${ms(samples.at(-1)!)}`,
      `  POST /api/auth/login, ${CONNECTIONS} connections, ${LOGIN_SECONDS} s: ${result.requests.average.toFixed(1)} logins/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${failed ? `, ${failed} failed` : ''}`,
      `token check at the gateway (${header.keys[0]?.alg}), per request, ${VERIFY_ROUNDS} rounds:`,
      `  signature + claims: ${signatureUs.toFixed(1)} µs; with the revocation lookup in Redis: ${totalUs.toFixed(1)} µs`,
      '',
    ].join('\n'),
  );
}

await runBench('auth', ['auth'], main);
