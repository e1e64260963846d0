import { fileURLToPath } from 'node:url';
import { freePort } from '@ruilplein/local';
import { testStores } from '@ruilplein/local/testing';
import { body, runMain } from '@ruilplein/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { testKeyPem } from './helpers.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('auth main', () => {
  it('stops at start-up with one line naming a missing variable, and outside local mode wants a key, SMTP and a limit key', async () => {
    const missing = runMain(main, { MONGODB_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1' });
    expect((await missing.exited)[0]).toBe(1);
    expect(missing.output().stderr).toBe('auth: config: REDIS_URL is missing\n');

    const stores = { MONGODB_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1', REDIS_URL: 'redis://127.0.0.1:1' };
    const noKey = runMain(main, stores);
    expect((await noKey.exited)[0]).toBe(1);
    expect(noKey.output().stderr).toBe('auth: config: AUTH_JWT_PRIVATE_KEY is missing (required unless RUILPLEIN_MODE=local)\n');
    const noSmtp = runMain(main, { ...stores, AUTH_JWT_PRIVATE_KEY: testKeyPem() });
    expect((await noSmtp.exited)[0]).toBe(1);
    expect(noSmtp.output().stderr).toBe('auth: config: SMTP_URL is missing (required unless RUILPLEIN_MODE=local)\n');
    const noLimitKey = runMain(main, { ...stores, AUTH_JWT_PRIVATE_KEY: testKeyPem(), SMTP_URL: 'smtp://127.0.0.1:1' });
    expect((await noLimitKey.exited)[0]).toBe(1);
    expect(noLimitKey.output().stderr).toBe('auth: config: AUTH_LIMIT_KEY is missing (required unless RUILPLEIN_MODE=local)\n');
  });

  it('serves its key set and the seeded admin in local mode, then drains and exits 0 on SIGTERM', async () => {
    const { mongoUrl, natsUrl, redisUrl } = testStores();
    const port = await freePort();
    const proc = runMain(main, { MONGODB_URL: mongoUrl, NATS_URL: natsUrl, REDIS_URL: redisUrl, PORT: String(port), RUILPLEIN_MODE: 'local', LOG_LEVEL: 'info' });
    const base = `http://127.0.0.1:${port}`;
    await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status, { timeout: 20_000, interval: 200 }).toBe(200);
    const jwks = await body(await fetch(`${base}/.well-known/jwks.json`));
    expect(jwks.keys).toHaveLength(1);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'beheerder@ruilplein.local', password: 'Ruilen123' }),
    });
    expect(login.status).toBe(200);
    expect((await body(login)).user.role).toContain('Beheerder');
    expect(proc.output().stdout).toMatch(/"email":"beheerder@ruilplein.local","password":"Ruilen123","msg":"demo admin account"/);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toEqual([0, null]);
  });
});
