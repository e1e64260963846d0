// `npm run bench:gateway` cannot rot: its smoke run (a second of load per step) must start its
// stores and services and print every figure. No timing is asserted.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { expect, it } from 'vitest';

it('bench:gateway --smoke runs and prints its figures', async () => {
  const { stdout } = await runBenchSmoke(fileURLToPath(new URL('../bench/gateway.bench.ts', import.meta.url)), {
    figures: [/^\d+ req\/s +[\d.]+ \/ [\d.]+ ms/m, /^max +\d+ req\/s, [\d.]+ \/ [\d.]+ ms +\d+ req\/s/m, /throughput [\d.]+×/, /^goal: /m],
  });
  expect(stdout).not.toMatch(/failed of/);
}, 180_000);
