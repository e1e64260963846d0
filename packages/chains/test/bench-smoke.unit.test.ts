// `npm run bench:chains -- --smoke` as its own process: it must run through and print every figure
// it exists for (no timing is asserted), so the bench cannot rot unnoticed.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { expect, it } from 'vitest';

it('bench:chains --smoke runs and prints its figures', async () => {
  const { stdout } = await runBenchSmoke(fileURLToPath(new URL('../bench/chains.bench.ts', import.meta.url)), {
    figures: [
      /world: [\d,]+ members, [\d,]+ listings, [\d,]+ wishes/,
      /full computation from scratch: [\d.]+ s, [\d,]+ cycles \([\d,]+ of two, [\d,]+ of three\)/,
      /new wish → its chains found: p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms \(100 new wishes, \d+ closed a chain/,
      /suggestionsFor\(member, now\): p50 [\d.]+ ms, p99 [\d.]+ ms/,
      /memory .*heap \d+ MB, array buffers \d+ MB .*RSS \d+ MB; \d+ bytes per wish/,
    ],
  });
  // The smoke world is dense: it must hold chains, or the figures measure an empty graph.
  expect(Number(/([\d,]+) cycles/.exec(stdout)![1]!.replaceAll(',', ''))).toBeGreaterThan(0);
}, 150_000);
