// Several replicas per service (`npm start -- --replicas 2`): UPSTREAM_<SERVICE> names each,
// comma-separated; the gateway takes turns and passes over one that refuses connections.
import { randomUUID } from 'node:crypto';
import { testStores } from '@ruilplein/local/testing';
import { parseConfig } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createGateway, gatewayConfig } from '../src/app.ts';

type Served = Awaited<ReturnType<typeof listen>>;

// Port 1 (tcpmux) has no listener on any machine we run on: a replica that is down.
const down = 'http://127.0.0.1:1';
let issuer: TestIssuer;
let redis: RedisClientType;
const replicas: Served[] = [];
const hubs: WebSocketServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

/** A replica that says which one it is and what it received. */
async function replica(name: string): Promise<Served> {
  const served = await listen((req, res) => {
    let received = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (received += chunk));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ replica: name, method: req.method, body: received })));
  });
  const hub = new WebSocketServer({ server: served.server });
  hub.on('connection', (socket) => socket.on('message', (data) => socket.send(`${name}:${String(data)}`)));
  hubs.push(hub);
  replicas.push(served);
  return served;
}

async function startGateway(listing: string, chat = listing): Promise<string> {
  const others = replicas[0]!.url;
  const config = parseConfig(gatewayConfig, {
    REDIS_URL: testStores().redisUrl,
    UPSTREAM_AUTH: others,
    UPSTREAM_LISTING: listing,
    UPSTREAM_TRADE: others,
    UPSTREAM_CHAT: chat,
    UPSTREAM_MODERATION: others,
    UPSTREAM_PAYMENT: others,
    UPSTREAM_NOTIFICATION: others,
  });
  const gateway = createGateway({ config, logger: silentLogger(), verifyToken: issuer.verifyToken, redis, keyPrefix: `test:${randomUUID()}` });
  const served = await listen(gateway.app);
  served.server.on('upgrade', gateway.onUpgrade);
  cleanups.push(async () => {
    gateway.close();
    await served.close();
  });
  return served.url;
}

beforeAll(async () => {
  issuer = await createTestIssuer();
  redis = createClient({ url: testStores().redisUrl });
  await redis.connect();
  await replica('a');
  await replica('b');
});

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const hub of hubs) {
    for (const client of hub.clients) client.terminate();
    hub.close();
  }
  for (const served of replicas) await served.close();
  await redis.close();
  await issuer.close();
});

const replicaOf = async (res: Response) => ((await body(res)) as { replica: string }).replica;

describe('a service with several replicas', () => {
  it('takes turns over the replicas of UPSTREAM_<SERVICE>', async () => {
    const url = await startGateway(`${replicas[0]!.url},${replicas[1]!.url}`);
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) seen.push(await replicaOf(await fetch(`${url}/api/category`)));
    expect(seen.filter((r) => r === 'a')).toHaveLength(3);
    expect(seen.filter((r) => r === 'b')).toHaveLength(3);
    // Turns, not chance: never the same replica twice in a row.
    expect(seen.every((r, i) => i === 0 || r !== seen[i - 1])).toBe(true);
  });

  it('passes over a replica that refuses connections, for a request with a body too', async () => {
    const url = await startGateway(`${down}, ${replicas[1]!.url}`);
    const token = await issuer.sign({ sub: randomUUID() });
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${url}/api/listing/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Krat Bier ${i}` }),
      });
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ replica: 'b', method: 'POST', body: `{"title":"Krat Bier ${i}"}` });
    }
  });

  it('answers 503 when every replica refuses', async () => {
    const url = await startGateway(`${down},http://127.0.0.1:2`);
    const res = await fetch(`${url}/api/category`);
    expect(res.status).toBe(503);
  });

  it('passes a hub websocket over a replica that refuses to one that takes it', async () => {
    const url = await startGateway(replicas[0]!.url, `${down},${replicas[1]!.url}`);
    const token = await issuer.sign({ sub: randomUUID() });
    for (let i = 0; i < 2; i++) {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/chathub?offerId=7&access_token=${token}`);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
      ws.send('hallo');
      expect(await reply).toBe('b:hallo');
      ws.close();
    }
  });

  it('refuses a list with something that is not a URL', () => {
    expect(() => parseConfig(gatewayConfig, { REDIS_URL: testStores().redisUrl, UPSTREAM_LISTING: `${replicas[0]!.url},geen-url` })).toThrow(/UPSTREAM_LISTING/);
  });
});
