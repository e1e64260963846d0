// Trace context over the platform's socket.io hubs (service-kit socket-hub): the connection
// continues the trace of its upgrade request, what the hub sends carries it, and a client's event
// with a trace context runs in that trace. Spoken as raw engine.io/socket.io frames over `ws`, so
// the test sees the exact arguments a browser gets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, createSocketHub, startTelemetry, type SocketHub } from '@ruilplein/service-kit';
import { createTestIssuer, waitFor } from '@ruilplein/service-kit/testing';
import { testStores } from '@ruilplein/service-kit/test-stores';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const lines: Record<string, unknown>[] = [];
const logger = createLogger(
  'hub-traces',
  'info',
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

let stopTelemetry: () => Promise<void>;
let redis: RedisClientType;
let hub: SocketHub;
let server: Server;
let url: string;
let issuer: Awaited<ReturnType<typeof createTestIssuer>>;

beforeAll(async () => {
  stopTelemetry = startTelemetry('hub-traces', undefined);
  issuer = await createTestIssuer();
  redis = createClient({ url: testStores().redisUrl });
  await redis.connect();
  hub = createSocketHub({
    name: 'test hub',
    path: '/testhub',
    tokenParam: 'access_token',
    logger,
    verifyToken: issuer.verifyToken,
    redis,
    allowOrigin: () => true,
    streamName: `test:hub-traces:${crypto.randomUUID()}`,
    connected(socket) {
      logger.info('member connected');
      void socket.join('everyone');
      socket.emit('Hello', 'Welkom');
      hub.io.to('everyone').emit('News', 7);
      socket.on('Ping', () => logger.info('pinged'));
    },
  });
  server = createServer();
  server.on('upgrade', hub.onUpgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/testhub/?EIO=4&transport=websocket`;
});
afterAll(async () => {
  await hub.stop();
  await new Promise((resolve) => server.close(resolve));
  await redis.quit();
  await issuer.close();
  await stopTelemetry();
});

/** socket.io events (`42[...]`) a raw websocket received, as their argument lists. */
function events(ws: WebSocket): unknown[][] {
  const seen: unknown[][] = [];
  ws.on('message', (data: Buffer) => {
    const frame = data.toString();
    if (frame === '2') ws.send('3');
    else if (frame.startsWith('0')) ws.send('40');
    else if (frame.startsWith('42')) seen.push(JSON.parse(frame.slice(2)) as unknown[]);
  });
  return seen;
}

describe('trace context over the hub', () => {
  it('continues the upgrade request’s trace in the connection, sends it with every event, and runs a client’s traced event in its trace', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const token = await issuer.sign({ sub: 'member-1' });
    const ws = new WebSocket(`${url}&access_token=${token}`, { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
    const seen = events(ws);
    await waitFor(() => seen.length >= 2, 'the hub’s two events');

    const connected = lines.find((l) => l.msg === 'member connected');
    expect(connected?.trace_id).toBe(traceId);
    const byName = Object.fromEntries(seen.map(([name, ...args]) => [name as string, args]));
    // The event's own arguments, the trace context it was sent in (a socket's own, a room's
    // broadcast), and last the offset socket.io's connection state recovery adds.
    const traced = { traceparent: expect.stringMatching(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`)) };
    expect(byName.Hello).toEqual(['Welkom', traced, expect.any(String)]);
    expect(byName.News).toEqual([7, traced, expect.any(String)]);

    const clientTrace = '5e0c63257de34c92bf9efcd03927272e';
    ws.send(`42${JSON.stringify(['Ping', { traceparent: `00-${clientTrace}-00f067aa0ba902b7-01` }])}`);
    await waitFor(() => lines.some((l) => l.msg === 'pinged'), 'the traced Ping handled');
    expect(lines.find((l) => l.msg === 'pinged')).toMatchObject({ trace_id: clientTrace, span_id: expect.not.stringMatching(/^00f067aa0ba902b7$/) });
    ws.close();
  });
});
