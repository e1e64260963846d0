// `npm run size` and `npm run lcp` (shell/bench) cannot rot: their smoke runs measure the builds
// this project's set-up has just made fresh (both also make the one-bundle build) and must print
// every figure. No size or time is asserted.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { it } from 'vitest';

const bench = (name: string) => fileURLToPath(new URL(`../shell/bench/${name}.ts`, import.meta.url));

it('size --smoke builds the one bundle and prints both sizes of each visit', async () => {
  await runBenchSmoke(bench('size'), { figures: [/^ {2}\/ +[\d.]+ kB +[\d.]+ kB +[\d.]+×$/m, /^ {2}\/dashboard\/search +[\d.]+ kB +[\d.]+ kB +[\d.]+×$/m, /^Budget: /m] });
}, 180_000);

it('lcp --smoke prints the paint of each page, shipped and static, and each member page’s reload, federated and one bundle', async () => {
  await runBenchSmoke(bench('lcp'), {
    figures: [
      /^ {2}\/ +\d+ ms +\d+ ms +[\d.]+×/m,
      /^ {2}\/login +\d+ ms +\d+ ms +[\d.]+×/m,
      /^ {2}\/dashboard\/search +\d+ ms +\d+ ms +[\d.]+×$/m,
      /^ {2}\/dashboard\/tradeoffer\/1 +\d+ ms +\d+ ms +[\d.]+×$/m,
      /^ {2}\/dashboard\/search \(first\) +\d+ ms +\d+ ms +[\d.]+×$/m,
      /^ {2}\/dashboard\/tradeoffer\/1 \(first\) +\d+ ms +\d+ ms +[\d.]+×$/m,
    ],
    // It makes the one-bundle build too, and opens each member page three times per build.
    timeoutMs: 220_000,
  });
}, 240_000);
