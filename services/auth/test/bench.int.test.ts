// `npm run bench:auth` and `npm run bench:upload` cannot rot: their smoke runs (a second of
// logins; two small pictures) must start their stores and auth and print every figure. No timing
// is asserted.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { expect, it } from 'vitest';

const bench = (name: string) => fileURLToPath(new URL(`../bench/${name}.bench.ts`, import.meta.url));

it('bench:auth --smoke runs and prints its figures', async () => {
  const { stdout } = await runBenchSmoke(bench('auth'), {
    figures: [/one hash alone: median [\d.]+ ms, max [\d.]+ ms/, /POST \/api\/auth\/login, .*: [\d.]+ logins\/s, p50 \d+ ms, p99 \d+ ms/, /signature \+ claims: [\d.]+ µs; with the revocation lookup in Redis: [\d.]+ µs/],
  });
  expect(stdout).not.toMatch(/failed/);
}, 180_000);

it('bench:upload --smoke runs and prints its figures', async () => {
  await runBenchSmoke(bench('upload'), {
    figures: [/answers: 2× 200$/m, /latency: p50 [\d.]+ s, p95 [\d.]+ s, max [\d.]+ s; all done in [\d.]+ s/, /auth RSS: \d+ MB before .*, peak \d+ MB during, \d+ MB after/],
  });
}, 180_000);
