import { fileURLToPath } from 'node:url';
import { freePort } from '@ruilplein/local';
import { testStores } from '@ruilplein/local/testing';
import { runMain } from '@ruilplein/service-kit/testing';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

const run = (env: Record<string, string>) => runMain(main, env);

describe('listing main', () => {
  it('stops at start-up with one line naming a missing or malformed variable', async () => {
    const missing = run({ NATS_URL: 'nats://127.0.0.1:1' });
    expect((await missing.exited)[0]).toBe(1);
    expect(missing.output().stderr).toBe('listing: config: MONGODB_URL is missing\n');

    const malformed = run({ MONGODB_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1', PORT: 'tachtig' });
    expect((await malformed.exited)[0]).toBe(1);
    expect(malformed.output().stderr).toMatch(/^listing: config: PORT is invalid \(.+\)\n$/);
  });

  it('serves, then drains and exits 0 on SIGTERM', async () => {
    const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
    const port = await freePort();
    const proc = run({ MONGODB_URL: mongoUrl, NATS_URL: natsServiceUrls?.listing ?? natsUrl, REDIS_URL: redisUrl, PORT: String(port), LOG_LEVEL: 'info' });
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, { timeout: 20_000, interval: 200 })
      .toBe(200);
    const categories = await (await fetch(`http://127.0.0.1:${port}/api/category`)).json();
    expect(Array.isArray(categories) && categories.length).toBeGreaterThan(20);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toEqual([0, null]);
    expect(proc.output().stdout).toContain('"msg":"shutting down"');
  });
});
