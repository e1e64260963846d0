import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { request, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { defineRoute, SUSPENDED_MESSAGE, tokenVersionKey } from '@ruilplein/contracts';
import { createEdge } from '@ruilplein/local';
import { testStores } from '@ruilplein/local/testing';
import { createApp, INVALID_PATH, MESSAGES, parseConfig, startTelemetry } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, upgradeRefusal, type TestIssuer } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { createGateway, gatewayConfig } from '../src/app.ts';

const NOT_LOGGED_IN = 'Je bent niet ingelogd of je sessie is verlopen.';

interface Seen {
  service: string;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An upstream that answers with what it received, and says who it is the way express does. */
const echo =
  (service: string): RequestListener =>
  (req, res) => {
    let received = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (received += chunk));
    req.on('end', () => {
      const seen: Seen = { service, method: req.method!, url: req.url!, headers: req.headers, body: received };
      // Answers with personal data say no-store (the kit's createApp); the gateway keeps that.
      res.writeHead(200, { 'content-type': 'application/json', 'x-powered-by': 'Express', 'cache-control': 'no-store' }).end(JSON.stringify(seen));
    });
  };

type Served = Awaited<ReturnType<typeof listen>>;

let issuer: TestIssuer;
let redis: RedisClientType;
let stopTelemetry: () => Promise<void>;
const upstreams: Record<string, Served> = {};
let hub: WebSocketServer;
const hubRequests: IncomingMessage[] = [];
// Port 1 (tcpmux) has no listener on any machine we run on. A port we once listened on and closed
// could be handed to a gateway this file starts later, which then answers 200.
const closedPortUrl = 'http://127.0.0.1:1';
const cleanups: (() => Promise<void>)[] = [];
let gatewayUrl: string;

async function startGateway(
  env: Record<string, string> = {},
  client: RedisClientType = redis,
  trustedProxyHops?: number,
  options: { keyPrefix?: string; recordSpans?: boolean } = {},
): Promise<string> {
  const config = parseConfig(gatewayConfig, {
    REDIS_URL: testStores().redisUrl,
    UPSTREAM_AUTH: upstreams.auth!.url,
    UPSTREAM_LISTING: upstreams.listing!.url,
    UPSTREAM_TRADE: upstreams.trade!.url,
    UPSTREAM_CHAT: upstreams.chat!.url,
    UPSTREAM_MODERATION: upstreams.moderation!.url,
    UPSTREAM_PAYMENT: upstreams.payment!.url,
    // The notification hub's websockets reach the same echo hub.
    UPSTREAM_NOTIFICATION: upstreams.chat!.url,
    ...env,
  });
  const gateway = createGateway({
    config,
    logger: silentLogger(),
    verifyToken: issuer.verifyToken,
    redis: client,
    keyPrefix: options.keyPrefix ?? `test:${randomUUID()}`,
    trustedProxyHops,
    recordSpans: options.recordSpans,
  });
  const served = await listen(gateway.app);
  served.server.on('upgrade', gateway.onUpgrade);
  cleanups.push(async () => {
    gateway.close();
    await served.close();
  });
  return served.url;
}

beforeAll(async () => {
  // Registers the W3C trace context propagator, as main.ts does through runService.
  stopTelemetry = startTelemetry('gateway-test', undefined);
  issuer = await createTestIssuer();
  redis = createClient({ url: testStores().redisUrl });
  await redis.connect();
  for (const service of ['auth', 'listing', 'trade', 'chat', 'moderation', 'payment']) upstreams[service] = await listen(echo(service));
  hub = new WebSocketServer({ server: upstreams.chat!.server });
  hub.on('connection', (socket, req) => {
    hubRequests.push(req);
    socket.on('message', (data) => socket.send(`echo:${String(data)}`));
  });
  upstreams.slow = await listen(() => {});
  gatewayUrl = await startGateway();
});

afterAll(async () => {
  for (const client of hub.clients) client.terminate();
  hub.close();
  for (const cleanup of cleanups) await cleanup();
  for (const served of Object.values(upstreams)) await served.close();
  await redis.close();
  await issuer.close();
  await stopTelemetry();
});

const get = (path: string, headers: Record<string, string> = {}, base = gatewayUrl) => fetch(`${base}${path}`, { headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const newUser = () => ({ sub: randomUUID() });

async function expectRefused(res: Response, status: number, message: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('x-powered-by')).toBeNull();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const text = await res.text();
  expect(JSON.parse(text)).toEqual({ message });
  expect(text).not.toMatch(/\bat \S+ \(|Error|ECONN/);
}

describe('routing', () => {
  it('sends a public route through without a token, to its owner', async () => {
    const res = await get('/api/category');
    expect(res.status).toBe(200);
    const seen: Seen = await body(res);
    expect(seen).toMatchObject({ service: 'listing', method: 'GET', url: '/api/category' });
    expect(seen.headers.authorization).toBeUndefined();
  });

  it('matches paths case-insensitively and passes them on unchanged', async () => {
    expect(await body(await get('/API/Category'))).toMatchObject({ service: 'listing', url: '/API/Category' });
    const token = await issuer.sign(newUser());
    const res = await get('/api/Auth/activate?token=abc', bearer(token));
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ service: 'auth', url: '/api/Auth/activate?token=abc' });
  });

  it('answers 404 for a path nobody owns, before looking at any token', async () => {
    for (const path of ['/api/nope', '/uploads/other/a.webp', '/apix', '/']) {
      await expectRefused(await get(path), 404, MESSAGES.notFound);
    }
  });

  it('streams request bodies to the upstream', async () => {
    const token = await issuer.sign(newUser());
    const res = await fetch(`${gatewayUrl}/api/listing/create`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Krat Bier' }),
    });
    expect(await body(res)).toMatchObject({ service: 'listing', method: 'POST', body: '{"title":"Krat Bier"}' });
  });

  it('answers its own health and readiness', async () => {
    expect(await body(await get('/healthz'))).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await body(ready)).toEqual({ status: 'ready', checks: { redis: 'ok' } });
  });
});

describe('tokens', () => {
  it('passes a valid token on, with request id, trace context and forwarding headers', async () => {
    const token = await issuer.sign(newUser());
    const res = await get('/api/user/my', { ...bearer(token), 'x-request-id': 'req-42' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-42');
    expect(res.headers.get('x-powered-by')).toBeNull();
    const { service, headers }: Seen = await body(res);
    expect(service).toBe('auth');
    expect(headers.authorization).toBe(`Bearer ${token}`);
    expect(headers['x-request-id']).toBe('req-42');
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe(new URL(gatewayUrl).host);
  });

  it.each([
    ['continuing the trace', false],
    ['recording a span', true],
  ])('gives each request an id and continues the caller’s trace (%s)', async (_, recordSpans) => {
    const url = recordSpans ? await startGateway({}, redis, undefined, { recordSpans }) : gatewayUrl;
    const traceId = 'a'.repeat(32);
    const res = await get('/api/category', { traceparent: `00-${traceId}-${'b'.repeat(16)}-01`, tracestate: 'ruil=1' }, url);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const { headers }: Seen = await body(res);
    expect(headers['x-request-id']).toBe(id);
    expect(headers.traceparent).toMatch(new RegExp(`^00-${traceId}-(?!${'b'.repeat(16)})[0-9a-f]{16}-01$`));
    expect(headers.tracestate).toBe('ruil=1');
    // Without a (valid) caller's trace, a new one.
    for (const traceparent of [undefined, `00-${'0'.repeat(32)}-${'b'.repeat(16)}-01`, 'nonsense']) {
      const fresh: Seen = await body(await get('/api/category', traceparent ? { traceparent } : {}, url));
      expect(fresh.headers.traceparent).toMatch(/^00-(?!0{32})[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(fresh.headers.traceparent).not.toContain('b'.repeat(16));
    }
  });

  it('refuses a missing token with 401 and says how to authenticate', async () => {
    const res = await get('/api/user/my');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    await expectRefused(res, 401, NOT_LOGGED_IN);
  });

  it('refuses a token with a bad signature, an expired one and an unsigned one', async () => {
    const user = newUser();
    const tokens = [
      await issuer.signWithForeignKey(user),
      await issuer.sign(user, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
      issuer.unsigned(user),
    ];
    for (const token of tokens) await expectRefused(await get('/api/user/my', bearer(token)), 401, NOT_LOGGED_IN);
  });

  it('refuses a malformed Authorization header with 401, not 500', async () => {
    for (const authorization of ['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer not-a-jwt', 'Bearer a.b.c', 'Bearer \u00e9\u00e9']) {
      await expectRefused(await get('/api/user/my', { authorization }), 401, NOT_LOGGED_IN);
    }
  });

  it('refuses a revoked token: a newer token version in Redis', async () => {
    const user = newUser();
    const token = await issuer.sign({ ...user, ver: 1 });
    expect((await get('/api/user/my', bearer(token))).status).toBe(200);
    await redis.set(tokenVersionKey(user.sub), '1');
    expect((await get('/api/user/my', bearer(token))).status).toBe(200);
    await redis.set(tokenVersionKey(user.sub), '2');
    await expectRefused(await get('/api/user/my', bearer(token)), 401, NOT_LOGGED_IN);
  });

  it("refuses a suspended member's token on member routes with the suspension, until its date", async () => {
    const until = Math.floor(Date.now() / 1000) + 3600;
    const banned = await issuer.sign({ ...newUser(), sus: { r: 'ban', u: until } });
    for (const [method, path] of [['GET', '/api/user/my'], ['POST', '/api/tradeoffer/create'], ['GET', '/api/admin/stats'], ['GET', '/chathub/?offerId=1']] as const) {
      const res = await fetch(`${gatewayUrl}${path}`, { method, headers: bearer(banned) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await body(res)).toEqual({ message: SUSPENDED_MESSAGE, blocked: true, reason: 'ban', unblockDate: new Date(until * 1000).toISOString() });
    }
    // Status, the session check, sign-out and public routes stay open.
    expect((await get('/api/user/status', bearer(banned))).status).toBe(200);
    expect((await get('/api/auth/verify', bearer(banned))).status).toBe(200);
    expect((await fetch(`${gatewayUrl}/api/auth/logout`, { method: 'POST', headers: bearer(banned) })).status).toBe(200);
    expect((await get('/api/category', bearer(banned))).status).toBe(200);
    // Without an end it holds; with an end passed it is gone, the token is a member's again.
    const forever = await issuer.sign({ ...newUser(), sus: { r: 'warnings' } });
    expect(await body(await get('/api/user/my', bearer(forever)))).toMatchObject({ reason: 'warnings', unblockDate: null });
    const ended = await issuer.sign({ ...newUser(), sus: { r: 'ban', u: Math.floor(Date.now() / 1000) - 1 } });
    expect((await get('/api/user/my', bearer(ended))).status).toBe(200);
  });

  it('honours a token issued before the rename: its `blk` claim suspends alike until its date', async () => {
    const until = Math.floor(Date.now() / 1000) + 3600;
    const before = await issuer.sign({ ...newUser(), blk: { r: 'ban', u: until } });
    const res = await get('/api/user/my', bearer(before));
    expect(res.status).toBe(403);
    expect(await body(res)).toEqual({ message: SUSPENDED_MESSAGE, blocked: true, reason: 'ban', unblockDate: new Date(until * 1000).toISOString() });
    expect((await get('/api/user/status', bearer(before))).status).toBe(200);
    const ended = await issuer.sign({ ...newUser(), blk: { r: 'warnings', u: Math.floor(Date.now() / 1000) - 1 } });
    expect((await get('/api/user/my', bearer(ended))).status).toBe(200);
  });

  it('drops an invalid token on a public route instead of failing it', async () => {
    const user = newUser();
    await redis.set(tokenVersionKey(user.sub), '5');
    const res = await get('/api/category', bearer(await issuer.sign(user)));
    expect(res.status).toBe(200);
    expect(((await body(res)) as Seen).headers.authorization).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('limits requests per IP with 429 and Retry-After', async () => {
    const url = await startGateway({ RATE_LIMIT_PER_IP: '3', RATE_LIMIT_WINDOW_SECONDS: '30' });
    for (let i = 0; i < 3; i++) expect((await get('/api/category', {}, url)).status).toBe(200);
    const res = await get('/api/category', {}, url);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30).toBe(true);
    await expectRefused(res, 429, MESSAGES.tooManyRequests);
    // Another client (behind the trusted local proxy) has its own budget.
    expect((await get('/api/category', { 'x-forwarded-for': '203.0.113.9' }, url)).status).toBe(200);
  });

  it('limits requests per user on top of the IP limit', async () => {
    const url = await startGateway({ RATE_LIMIT_PER_USER: '2' });
    const [alice, bob] = [await issuer.sign(newUser()), await issuer.sign(newUser())];
    for (let i = 0; i < 2; i++) expect((await get('/api/user/my', bearer(alice), url)).status).toBe(200);
    const res = await get('/api/user/my', bearer(alice), url);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectRefused(res, 429, MESSAGES.tooManyRequests);
    expect((await get('/api/user/my', bearer(bob), url)).status).toBe(200);
  });

  it('keeps public routes up and limits in memory when Redis is gone, and fails closed on tokens', async () => {
    const lost: RedisClientType = createClient({ url: testStores().redisUrl });
    await lost.connect();
    await lost.close();
    const url = await startGateway({ RATE_LIMIT_PER_IP: '2' }, lost);
    expect((await get('/api/category', {}, url)).status).toBe(200);
    await expectRefused(await get('/api/user/my', bearer(await issuer.sign(newUser())), url), 503, MESSAGES.unavailable);
    await expectRefused(await get('/api/category', {}, url), 429, MESSAGES.tooManyRequests);
    expect((await get('/readyz', {}, url)).status).toBe(503);
  });
});

describe('rate limits across gateways', () => {
  it('shares the per-IP count of replicas through Redis', async () => {
    const keyPrefix = `test:${randomUUID()}`;
    const env = { RATE_LIMIT_PER_IP: '4', RATE_LIMIT_WINDOW_SECONDS: '30' };
    const [a, b] = [await startGateway(env, redis, undefined, { keyPrefix }), await startGateway(env, redis, undefined, { keyPrefix })];
    for (let i = 0; i < 3; i++) expect((await get('/api/category', {}, a)).status).toBe(200);
    // Each replica adds its hits to Redis within a fraction of a second.
    await expect.poll(() => redis.get(`${keyPrefix}:ip:127.0.0.1`), { timeout: 2000, interval: 50 }).toBe('3');
    expect((await get('/api/category', {}, b)).status).toBe(200);
    await expect.poll(() => redis.get(`${keyPrefix}:ip:127.0.0.1`), { timeout: 2000, interval: 50 }).toBe('4');
    await expectRefused(await get('/api/category', {}, b), 429, MESSAGES.tooManyRequests);
    await expect.poll(async () => (await get('/api/category', {}, a)).status, { timeout: 2000, interval: 50 }).toBe(429);
  });
});

describe('upstream failures', () => {
  it('answers 503 when the upstream cannot be reached', async () => {
    const url = await startGateway({ UPSTREAM_LISTING: closedPortUrl });
    await expectRefused(await get('/api/category', {}, url), 503, MESSAGES.unavailable);
  });

  it('closes the request to the upstream when the client leaves', async () => {
    let received = 0;
    let closed = 0;
    const hanging = await listen((req) => {
      received++;
      req.socket.once('close', () => closed++);
    });
    try {
      const url = await startGateway({ UPSTREAM_LISTING: hanging.url });
      const leaving = new AbortController();
      const answered = fetch(`${url}/api/category`, { signal: leaving.signal }).catch(() => 'left');
      await expect.poll(() => received, { timeout: 2000, interval: 20 }).toBe(1);
      leaving.abort();
      expect(await answered).toBe('left');
      await expect.poll(() => closed, { timeout: 2000, interval: 20 }).toBe(1);
    } finally {
      await hanging.close();
    }
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    const url = await startGateway({ UPSTREAM_LISTING: upstreams.slow!.url, UPSTREAM_TIMEOUT_MS: '300' });
    const started = Date.now();
    await expectRefused(await get('/api/category', {}, url), 504, MESSAGES.timeout);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('/chathub', () => {
  const wsUrl = (path: string) => `${gatewayUrl.replace('http', 'ws')}${path}`;

  function open(path: string, headers: Record<string, string> = {}) {
    return new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(path), { headers });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected ${res.statusCode}`)));
    });
  }

  const refusal = (path: string, headers: Record<string, string> = {}) => upgradeRefusal(`${gatewayUrl}${path}`, headers);

  async function roundTrip(ws: WebSocket) {
    const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    ws.send('hallo');
    const text = await reply;
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.close();
    await closed;
    return text;
  }

  it('passes a websocket with the token in the query through to chat', async () => {
    const token = await issuer.sign(newUser());
    const ws = await open(`/chathub?offerId=7&access_token=${token}`);
    expect(await roundTrip(ws)).toBe('echo:hallo');
    const upstreamReq = hubRequests.at(-1)!;
    expect(upstreamReq.url).toBe(`/chathub?offerId=7&access_token=${token}`);
    expect(upstreamReq.headers['x-request-id']).toBeTruthy();
    expect(upstreamReq.headers.traceparent).toBeTruthy();
  });

  it('passes a websocket to the notification hub the same way', async () => {
    const token = await issuer.sign(newUser());
    const ws = await open(`/notificationhub/?EIO=4&transport=websocket&access_token=${token}`);
    expect(await roundTrip(ws)).toBe('echo:hallo');
    expect(hubRequests.at(-1)!.url).toBe(`/notificationhub/?EIO=4&transport=websocket&access_token=${token}`);
  });

  it('passes a websocket with the token in the Authorization header through', async () => {
    const ws = await open('/ChatHub/', bearer(await issuer.sign(newUser())));
    expect(await roundTrip(ws)).toBe('echo:hallo');
  });

  it('refuses an upgrade without a valid token with a real HTTP 401', async () => {
    for (const path of ['/chathub', `/chathub?access_token=${await issuer.signWithForeignKey(newUser())}`]) {
      const res = await refusal(path);
      expect(res.status).toBe(401);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(JSON.parse(res.body)).toEqual({ message: NOT_LOGGED_IN });
    }
  });

  it('refuses an upgrade anywhere else with 404', async () => {
    const token = await issuer.sign(newUser());
    for (const path of ['/api/category', '/api/chat/7', '/nope']) {
      const res = await refusal(path, bearer(token));
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ message: MESSAGES.notFound });
    }
  });

  it('applies the same token rules to plain HTTP requests to the hub (long-polling)', async () => {
    const token = await issuer.sign(newUser());
    await expectRefused(await get('/chathub/?EIO=4&transport=polling'), 401, NOT_LOGGED_IN);
    const res = await get(`/chathub/?EIO=4&transport=polling&access_token=${token}`);
    expect(await body(res)).toMatchObject({ service: 'chat', url: `/chathub/?EIO=4&transport=polling&access_token=${token}` });
  });
});

/** A request exactly as written (fetch() would resolve `..`). */
function send(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) {
  return new Promise<{ status?: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    request({ hostname, port, path, method: opts.method ?? 'GET', headers: opts.headers }, async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode, headers: res.headers, body: text });
    })
      .on('error', reject)
      .end(opts.body);
  });
}

describe('paths', () => {
  it('refuses dot segments, encoded slashes and backslashes with 400 before routing or looking at a token', async () => {
    const bypasses: Array<[string, string]> = [
      ['GET', '/dev/mail/../../openapi.json'],
      ['GET', '/dev/mail/%2e%2e/%2e%2e/.well-known/jwks.json'],
      ['GET', '/api/category/../../readyz'],
      ['POST', '/dev/mail/../../api/auth/login'],
      ['POST', '/api/category/../auth/login'],
      ['GET', '/api/category/%2E%2e/%2e./openapi.json'],
      ['GET', '/api/category/..%2f..%2freadyz'],
      ['GET', '/api/category\\..\\..\\readyz'],
      ['GET', '/api/user/public/%zz'],
      ['GET', '/uploads/listings/%2e%2e/%2e%2e/readyz'],
    ];
    for (const [method, path] of bypasses) {
      const res = await send(gatewayUrl, path, { method });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(JSON.parse(res.body), path).toEqual({ message: INVALID_PATH });
    }
  });

  it('refuses a websocket upgrade on such a path with a real HTTP 400', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(gatewayUrl);
      const req = request({ hostname, port, path: '/chathub/%2e%2e/api/category', headers: { connection: 'upgrade', upgrade: 'websocket' } });
      req.on('response', (r) => resolve(r.statusCode!)).on('upgrade', () => reject(new Error('upgraded'))).on('error', reject).end();
    });
    expect(res).toBe(400);
  });

  it('collapses repeated slashes and passes the collapsed path on', async () => {
    const res = await send(gatewayUrl, '//api//category?x=a//b');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ service: 'listing', url: '/api/category?x=a//b' });
  });
});

describe('client addresses', () => {
  it('through the edge, a spoofed X-Forwarded-For changes nothing about the per-IP limit', async () => {
    const url = await startGateway({ RATE_LIMIT_PER_IP: '3', RATE_LIMIT_WINDOW_SECONDS: '30' });
    const edge = createEdge({ gatewayUrl: url, shellDir: '/nonexistent' });
    edge.listen(0, '127.0.0.1');
    await once(edge, 'listening');
    const base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
    try {
      const statuses: Array<number | undefined> = [];
      for (let i = 0; i < 5; i++) {
        const spoof = { 'x-forwarded-for': `198.51.100.${i}`, 'x-real-ip': `198.51.100.${i}`, forwarded: `for=198.51.100.${i}` };
        statuses.push((await send(base, '/api/category', { headers: spoof })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      edge.closeAllConnections();
      await new Promise((resolve) => edge.close(resolve));
    }
  });

  it('tells the service the client the edge saw, followed by the edge, and nothing a client wrote', async () => {
    const url = await startGateway();
    const edge = createEdge({ gatewayUrl: url, shellDir: '/nonexistent' });
    edge.listen(0, '127.0.0.1');
    await once(edge, 'listening');
    const base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
    try {
      const res = await send(base, '/api/category', { headers: { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' } });
      const { headers }: Seen = JSON.parse(res.body);
      expect(headers['x-forwarded-for']).toBe('127.0.0.1, 127.0.0.1');
      expect(headers['x-forwarded-proto']).toBe('http');
      expect(headers['x-forwarded-host']).toBe(new URL(base).host);
    } finally {
      edge.closeAllConnections();
      await new Promise((resolve) => edge.close(resolve));
    }
  });

  it('believes no header when no proxy is declared (TRUSTED_PROXY_HOPS=0)', async () => {
    const url = await startGateway({ RATE_LIMIT_PER_IP: '2' }, redis, 0);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/api/category', { 'x-forwarded-for': `198.51.100.${i}` }, url)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('answers', () => {
  it('adds its security headers to its own answers only: a service sets its own', async () => {
    const proxied = await get('/api/category');
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('content-security-policy')).toBeNull();
    expect(proxied.headers.get('x-powered-by')).toBeNull();
    const own = await get('/nope');
    expect(own.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(own.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('streams a large answer through whole, with back-pressure both ways', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'r');
    const big = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let left = 80;
      const more = () => {
        while (left > 0) {
          left--;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    try {
      const url = await startGateway({ UPSTREAM_LISTING: big.url });
      const res = await send(url, '/api/category');
      expect(res.status).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.body.length).toBe(80 * chunk.length);
    } finally {
      await big.close();
    }
  });

  it('keeps the service’s Cache-Control: no-store', async () => {
    const res = await get('/api/user/my', bearer(await issuer.sign(newUser())));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('passes a body that lies about its Content-Encoding through untouched, and the service’s 400 back', async () => {
    const token = await issuer.sign(newUser());
    const lie = { ...bearer(token), 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const echoed = await send(gatewayUrl, '/api/listing/create', { method: 'POST', headers: lie, body: Buffer.from('{"title":"geen gzip"}') });
    expect(echoed.status).toBe(200);
    expect(JSON.parse(echoed.body)).toMatchObject({ service: 'listing', body: '{"title":"geen gzip"}', headers: { 'content-encoding': 'gzip' } });

    // Against the kit's own app: the lie is the service's 400, never a 500 anywhere on the way.
    const route = defineRoute({
      service: 'listing',
      method: 'post',
      path: '/api/listing/create',
      summary: 'create',
      access: 'user',
      body: z.object({ title: z.string() }),
      response: z.object({ title: z.string() }),
    });
    const kit = await listen(createApp({ service: 'listing', logger: silentLogger(), verifyToken: issuer.verifyToken, routes: { listing: { route } }, handlers: { listing: { route: ({ body }) => body } } }));
    try {
      const url = await startGateway({ UPSTREAM_LISTING: kit.url });
      const refused = await send(url, '/api/listing/create', { method: 'POST', headers: lie, body: Buffer.from('{"title":"geen gzip"}') });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).message).toEqual(expect.any(String));
      const honest = await send(url, '/api/listing/create', { method: 'POST', headers: lie, body: gzipSync('{"title":"wel gzip"}') });
      expect(honest.status).toBe(200);
      expect(JSON.parse(honest.body)).toEqual({ title: 'wel gzip' });
    } finally {
      await kit.close();
    }
  });
});
