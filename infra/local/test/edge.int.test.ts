import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createEdge } from '../src/edge.ts';

const staticDir = join(import.meta.dirname, '..', 'public');
const unavailable = { message: 'De dienst is tijdelijk niet bereikbaar. Probeer het later opnieuw.' };

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The close code of a websocket that fails (1006: the connection dropped without a handshake). */
const closeCode = (ws: WebSocket) =>
  new Promise<number>((resolve) => {
    ws.on('error', () => {});
    ws.once('close', resolve);
  });

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** The gateway stand-in: records what reaches it, echoes websocket messages. */
const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];
const upstream = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  seen.push({ method: req.method, url: req.url, headers: req.headers, body });
  res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'gateway' }).end(JSON.stringify({ url: req.url }));
});
new WebSocketServer({ server: upstream }).on('connection', (socket, req) => {
  socket.on('message', (data) => socket.send(`${req.url} ${String(data)}`));
});

let edge: Server;
let base = '';

beforeAll(async () => {
  edge = createEdge({ gatewayUrl: await listen(upstream), staticDir });
  base = await listen(edge);
});

afterAll(async () => {
  edge.closeAllConnections();
  upstream.closeAllConnections();
  await Promise.all([close(edge), close(upstream)]);
});

describe('the local edge', () => {
  it('passes /api paths to the gateway exactly as asked: case, query, method, body', async () => {
    seen.length = 0;
    const res = await fetch(`${base}/api/Auth/activate?token=a%20B&x=1`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-upstream')).toBe('gateway');
    expect(await res.json()).toEqual({ url: '/api/Auth/activate?token=a%20B&x=1' });
    expect(seen).toEqual([expect.objectContaining({ method: 'POST', url: '/api/Auth/activate?token=a%20B&x=1', body: '{"a":1}' })]);
    expect(seen[0]?.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('passes /uploads/* and /chathub to the gateway', async () => {
    seen.length = 0;
    for (const path of ['/api', '/api/category', '/uploads/listings/abc.webp', '/chathub?offerId=7', '/chathub/?EIO=4&transport=polling']) {
      expect((await fetch(base + path)).status, path).toBe(201);
    }
    expect(seen.map((s) => s.url)).toEqual(['/api', '/api/category', '/uploads/listings/abc.webp', '/chathub?offerId=7', '/chathub/?EIO=4&transport=polling']);
  });

  it('matches prefixes like the Ingress: case-sensitive, whole segments; the rest is the frontend', async () => {
    seen.length = 0;
    for (const path of ['/API/category', '/Api/category', '/apix', '/chathubs', '/uploadsx/a']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('Ruilplein — de frontend volgt');
    }
    expect(seen).toEqual([]);
  });

  it('passes a websocket upgrade on /chathub both ways', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/chathub/?offerId=7&EIO=4&transport=websocket`);
    await once(ws, 'open');
    ws.send('hallo');
    const [reply] = (await once(ws, 'message')) as [Buffer];
    expect(String(reply)).toBe('/chathub/?offerId=7&EIO=4&transport=websocket hallo');
    ws.close();
    await once(ws, 'close');
  });

  it('refuses websocket upgrades outside the gateway paths', async () => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/somewhere`);
    expect(await closeCode(ws)).toBe(1006);
  });

  it('serves the placeholder at / and at client-side routes, 404 for missing files', async () => {
    for (const path of ['/', '/dashboard/search', '/dashboard/listing/42']) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<html lang="nl">');
    }
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(405);
  });

  it('never serves files outside its directory', async () => {
    // A raw request: fetch() would normalise the path. infra/local/package.json is one level up.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      request({ hostname, port, path: '/..%2fpackage.json' }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(404);
  });
});

describe('the local edge without a gateway', () => {
  it('answers /api with 502 and a Dutch JSON message, and drops websocket upgrades', async () => {
    const gone = createServer();
    const gatewayUrl = await listen(gone);
    await close(gone);
    const lonely = createEdge({ gatewayUrl, staticDir });
    const url = await listen(lonely);
    try {
      const res = await fetch(`${url}/api/category`);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toEqual(unavailable);

      const ws = new WebSocket(`${url.replace('http', 'ws')}/chathub/?EIO=4&transport=websocket`);
      expect(await closeCode(ws)).toBe(1006);
    } finally {
      lonely.closeAllConnections();
      await close(lonely);
    }
  });
});
