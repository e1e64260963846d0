// `npm run size` and `npm run lcp` (shell/bench) cannot rot: their smoke runs measure the builds
// this project's set-up has just made fresh (size also makes its one-bundle build) and must print
// every figure. No size or time is asserted.
import { fileURLToPath } from 'node:url';
import { runBenchSmoke } from '@ruilplein/service-kit/testing';
import { it } from 'vitest';

const bench = (name: string) => fileURLToPath(new URL(`../shell/bench/${name}.ts`, import.meta.url));

it('size --smoke builds the one bundle and prints both sizes of each visit', async () => {
  await runBenchSmoke(bench('size'), { figures: [/^ {2}\/ +[\d.]+ kB +[\d.]+ kB +[\d.]+×$/m, /^ {2}\/dashboard\/search +[\d.]+ kB +[\d.]+ kB +[\d.]+×$/m, /^Budget: /m] });
}, 180_000);

it('lcp --smoke prints the paint of each page, shipped and static', async () => {
  await runBenchSmoke(bench('lcp'), { figures: [/^ {2}\/ +\d+ ms +\d+ ms +[\d.]+×/m, /^ {2}\/login +\d+ ms +\d+ ms +[\d.]+×/m] });
}, 180_000);
