// `npm run bench:search -- --smoke` as its own process: it must run through and print every figure
// it exists for (no timing is asserted), so the bench cannot rot unnoticed. It starts its own stores.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { expect, it } from 'vitest';

it('bench:search --smoke runs and prints its figures', async () => {
  const { stdout } = await runBenchSmoke(fileURLToPath(new URL('../bench/search.bench.ts', import.meta.url)), {
    figures: [
      /no listings: ready in [\d.]+ m?s, RSS \d+ MB/,
      /start-up from the store: .*the index loaded in [\d.]+ m?s/,
      // Through memory-probe.ts, preloaded into the service.
      /memory: RSS \d+ MB, heap \d+ MB/,
      /GET \/api\/listing, 25 km, value, kind and 2 categories: +p50 [\d.]+ m?s, p95 [\d.]+ m?s \(20 requests/,
      /GET \/api\/listing\/recommendations .*p50 [\d.]+ m?s/,
      // Issue 23: keywords with 25 km and filters, suggestions, the keyword index's size.
      /GET \/api\/listing\?q=…, 25 km, value, kind and 2 categories: p50 [\d.]+ m?s, p95 [\d.]+ m?s \(20 requests.*× fetch by id/,
      /GET \/api\/listing\/suggest\?q=…: +p50 [\d.]+ m?s, p95 [\d.]+ m?s/,
      /keyword index: \d+ MB, \d+ bytes per listing/,
      /snapshot load: replica B's index from (store|snapshot) in [\d.]+ m?s/,
      /GET \/api\/listing\/\{id\} .*p50 [\d.]+ m?s/,
      // Issue 22's goal: a member who blocked 500 others searches about as fast as one who blocked nobody.
      /by a member who blocked 500 .*p50 [\d.]+ m?s, p95 [\d.]+ m?s \(20 requests/,
      /twins who blocked nobody: p50 [\d.]+ m?s, p95 [\d.]+ m?s .*p95 with blocks [\d.]+× without/,
      /replica B: .*loaded in [\d.]+ m?s from store/,
      /freshness, event published → found by a search on replica B: p50 [\d.]+ m?s/,
      /freshness, POST \/api\/listing\/create on A answered → found on B: p50 [\d.]+ m?s/,
      // Issue 23: saved-search alerts and the demand preview (bench/saved-scenarios.ts).
      /new listing matched \+ alerts queued \(\d+ listings, [\d.]+ members alerted each\): p50 [\d.]+ m?s, p99 [\d.]+ m?s/,
      /demand preview within 10 km \(\d+ places, \d+ members each\): p50 [\d.]+ m?s, p95 [\d.]+ m?s/,
    ],
    timeoutMs: 170_000,
  });
  // Not one measurement came back as "never found".
  expect(stdout).not.toMatch(/Infinity/);
}, 180_000);
