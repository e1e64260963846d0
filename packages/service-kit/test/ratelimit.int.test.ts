import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { defineRoute, type RouteDef } from '@ruilplein/contracts';
import { testStores } from '../src/test-stores.ts';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, MESSAGES } from '../src/index.ts';
import { createTestIssuer, listen, silentLogger, type TestIssuer } from '../src/testing.ts';

const route = (path: string, access: RouteDef['access'], rateLimit: RouteDef['rateLimit']) =>
  defineRoute({ service: 'listing', method: 'post', path, summary: path, access, rateLimit, response: z.object({ ok: z.boolean() }) });

const routes = {
  perClient: route('/per-client', 'public', { per: 'client', points: 3, windowSeconds: 600 }),
  perUser: route('/per-user', 'user', { per: 'user', points: 2, windowSeconds: 600 }),
  perUserPublic: route('/per-user-public', 'public', { per: 'user', points: 1, windowSeconds: 600 }),
  sharedA: route('/shared-a', 'user', { per: 'user', points: 3, windowSeconds: 600, name: 'chat-send' }),
  sharedB: route('/shared-b', 'user', { per: 'user', points: 3, windowSeconds: 600, name: 'chat-send' }),
  short: route('/short', 'public', { per: 'client', points: 1, windowSeconds: 1 }),
};

let redis: RedisClientType;
let issuer: TestIssuer;
let server: Awaited<ReturnType<typeof listen>>;
// A service name of its own per run: counters of an earlier run never interfere.
const service = `ratelimit-${randomUUID().slice(0, 8)}`;

const app = (client: Parameters<typeof createApp>[0]['redis']) =>
  createApp({
    service,
    logger: silentLogger(),
    verifyToken: issuer.verifyToken,
    redis: client,
    routes: { test: routes },
    handlers: { test: Object.fromEntries(Object.keys(routes).map((name) => [name, () => ({ ok: true })])) as Record<keyof typeof routes, () => { ok: boolean }> },
  });

beforeAll(async () => {
  issuer = await createTestIssuer();
  redis = createClient({ url: testStores().redisUrl, disableOfflineQueue: true });
  await redis.connect();
  server = await listen(app(redis));
});
afterAll(async () => {
  await server.close();
  for (const key of await redis.keys(`ratelimit:${service}:*`)) await redis.del(key);
  await redis.quit();
  await issuer.close();
});

/** A POST from a given loopback address (the whole of 127/8 reaches the server), so clients differ without trusting headers. */
function call(url: string, path: string, options: { from?: string; token?: string } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: { message?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      { method: 'POST', localAddress: options.from ?? '127.0.0.1', headers: { 'content-type': 'application/json', ...(options.token && { authorization: `Bearer ${options.token}` }) } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}
const statuses = async (n: number, path: string, options: { from?: string; token?: string } = {}) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(server.url, path, options)).status);
  return out;
};

describe('declared rate limits', () => {
  it('counts per client address: the Dutch 429 with Retry-After once the points are used, other clients unaffected', async () => {
    expect(await statuses(3, '/per-client', { from: '127.0.0.2' })).toEqual([200, 200, 200]);
    const limited = await call(server.url, '/per-client', { from: '127.0.0.2' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: MESSAGES.tooManyRequests });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await statuses(1, '/per-client', { from: '127.0.0.3' })).toEqual([200]);
    // The limit is per service: the key names it, the route and the client, nothing else.
    expect(await redis.keys(`ratelimit:${service}:post:/per-client:client:*`)).toHaveLength(2);
  });

  it('counts per member, whatever address they call from; a guest on a public route counts by address', async () => {
    const [ana, bob] = await Promise.all([issuer.sign({ sub: 'ana' }), issuer.sign({ sub: 'bob' })]);
    expect(await statuses(1, '/per-user', { token: ana, from: '127.0.0.4' })).toEqual([200]);
    expect(await statuses(2, '/per-user', { token: ana, from: '127.0.0.5' })).toEqual([200, 429]);
    expect(await statuses(2, '/per-user', { token: bob, from: '127.0.0.4' })).toEqual([200, 200]);
    // Not signed in: the route's own 401 comes before any counting.
    expect(await statuses(1, '/per-user', { from: '127.0.0.6' })).toEqual([401]);

    expect(await statuses(2, '/per-user-public', { from: '127.0.0.6' })).toEqual([200, 429]);
    expect(await statuses(1, '/per-user-public', { from: '127.0.0.7' })).toEqual([200]);
    expect(await statuses(2, '/per-user-public', { from: '127.0.0.6', token: ana })).toEqual([200, 429]);
  });

  it('routes sharing a limit name share one counter', async () => {
    const token = await issuer.sign({ sub: 'chatter' });
    expect(await statuses(2, '/shared-a', { token })).toEqual([200, 200]);
    expect(await statuses(2, '/shared-b', { token })).toEqual([200, 429]);
    expect((await call(server.url, '/shared-a', { token })).status).toBe(429);
  });

  it('a window ends: the client may call again', async () => {
    expect(await statuses(2, '/short', { from: '127.0.0.8' })).toEqual([200, 429]);
    await expect.poll(async () => (await call(server.url, '/short', { from: '127.0.0.8' })).status, { timeout: 5000, interval: 250 }).toBe(200);
  });

  it('fails closed: with Redis unreachable a limited route answers 503, an unlimited one still works', async () => {
    const away: RedisClientType = createClient({ url: 'redis://127.0.0.1:1', disableOfflineQueue: true, socket: { reconnectStrategy: false } });
    away.on('error', () => {});
    const down = await listen(app(away));
    try {
      const res = await call(down.url, '/per-client');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: MESSAGES.unavailable });
      expect((await fetch(`${down.url}/healthz`)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
