import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBenchSmoke } from '../src/bench-smoke.ts';

// Tiny stand-ins for bench scripts: what the helper must accept and what it must refuse.
let dir: string;
const script = async (name: string, body: string) => {
  const path = join(dir, name);
  await writeFile(path, body);
  return path;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('runBenchSmoke', () => {
  it('passes --smoke and resolves to the output when the figures are printed', async () => {
    const path = await script('ok.mjs', `console.log(process.argv.includes('--smoke') ? 'p50 1.20 ms, 300 req/s' : 'full run');`);
    const { stdout } = await runBenchSmoke(path, { figures: [/p50 [\d.]+ ms/, /\d+ req\/s/] });
    expect(stdout).toContain('300 req/s');
  });

  it('rejects a bench that fails, with its output', async () => {
    const path = await script('fails.mjs', `console.error('listing: config: REDIS_URL is missing'); process.exit(1);`);
    await expect(runBenchSmoke(path, { figures: [/req\/s/] })).rejects.toThrow(/exit code 1[\s\S]*REDIS_URL is missing/);
  });

  it('rejects a bench that ran but did not print a figure', async () => {
    const path = await script('silent.mjs', `console.log('p50 1.20 ms');`);
    await expect(runBenchSmoke(path, { figures: [/p50/, /req\/s/] })).rejects.toThrow(/did not print \/req\\\/s\//);
  });

  it('rejects NaN figures', async () => {
    const path = await script('nan.mjs', `console.log('p50 NaN ms, 0 req/s');`);
    await expect(runBenchSmoke(path, { figures: [/p50/] })).rejects.toThrow(/NaN/);
  });

  it('stops a bench that runs past its time', async () => {
    const path = await script('hangs.mjs', `setInterval(() => {}, 1000);`);
    await expect(runBenchSmoke(path, { figures: [/x/], timeoutMs: 200 })).rejects.toThrow(/SIGINT/);
  });
});
