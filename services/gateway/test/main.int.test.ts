import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '@ruilplein/local';
import { testStores } from '@ruilplein/local/testing';
import { createTestIssuer, listen, runMain } from '@ruilplein/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

const run = (env: Record<string, string>) => runMain(main, env);

describe('gateway main', () => {
  it('stops at start-up with one line naming a missing or malformed variable', async () => {
    const missing = run({});
    expect((await missing.exited)[0]).toBe(1);
    expect(missing.output().stderr).toBe('gateway: config: REDIS_URL is missing\n');

    const malformed = run({ REDIS_URL: 'redis://127.0.0.1:1', UPSTREAM_TIMEOUT_MS: 'vijf' });
    expect((await malformed.exited)[0]).toBe(1);
    expect(malformed.output().stderr).toMatch(/^gateway: config: UPSTREAM_TIMEOUT_MS is invalid \(.+\)\n$/);
  });

  it('proxies a websocket, and on SIGTERM closes it and exits 0 without waiting for it', async () => {
    const issuer = await createTestIssuer();
    const chat = await listen(() => {});
    const hub = new WebSocketServer({ server: chat.server });
    hub.on('connection', (socket) => socket.on('message', (data) => socket.send(String(data))));
    const port = await freePort();
    const proc = run({ REDIS_URL: testStores().redisUrl, UPSTREAM_CHAT: chat.url, AUTH_JWKS_URL: issuer.jwksUrl, PORT: String(port), LOG_LEVEL: 'info' });
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status, { timeout: 20_000, interval: 200 })
        .toBe(200);
      const ws = new WebSocket(`ws://127.0.0.1:${port}/chathub?access_token=${await issuer.sign({ sub: 'main-test' })}`);
      await once(ws, 'open');
      ws.send('hallo');
      expect(String((await once(ws, 'message'))[0])).toBe('hallo');

      const closed = once(ws, 'close');
      const started = Date.now();
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toEqual([0, null]);
      await closed;
      expect(Date.now() - started).toBeLessThan(5000);
      expect(proc.output().stdout).toContain('"msg":"shutting down"');
      // The hub's query token is kept out of the access log.
      expect(proc.output().stdout).toContain('access_token=[redacted]');
      expect(proc.output().stdout).not.toContain('access_token=ey');
    } finally {
      proc.child.kill('SIGKILL');
      hub.close();
      await chat.close();
      await issuer.close();
    }
  });
});
