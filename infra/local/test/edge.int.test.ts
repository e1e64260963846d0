import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { CONTENT_SECURITY_POLICY, createEdge, type Edge } from '../src/edge.ts';

/** Builds as the frontends' look: the shell, and one remote (served under /mfe/listings/). */
const fixture = mkdtempSync(join(tmpdir(), 'ruilplein-edge-'));
const shellDir = join(fixture, 'shell');
const remoteDir = join(fixture, 'listings');
const rebuiltDir = join(fixture, 'listings-rebuilt');
const bigScript = `console.log(${JSON.stringify('Ruilplein '.repeat(500))});\n`;
const files: Record<string, string> = {
  // Prerendered pages (`/`, `/over-ons`) and the app page of every other client-side route.
  'shell/index.html': '<!doctype html><html lang="nl"><title>Ruilplein: ruil spullen</title><script src="/static/js/main.0123abcd.js"></script></html>',
  'shell/over-ons/index.html': '<!doctype html><html lang="nl"><title>Over ons | Ruilplein</title><script src="/static/js/main.0123abcd.js"></script></html>',
  'shell/app.html': '<!doctype html><html lang="nl"><title>Ruilplein</title><script src="/static/js/main.0123abcd.js"></script></html>',
  'shell/remotes.json': '{"listings":"/mfe/listings/mf-manifest.json"}',
  'shell/static/js/main.0123abcd.js': bigScript,
  'shell/static/css/main.89abcdef01234567.css': 'body{margin:0}',
  'shell/favicon.ico': 'icon',
  'shell/secret.txt.map': '{}',
  'listings/mf-manifest.json': '{"name":"listings"}',
  'listings/remoteEntry.js': 'var listings;',
  'listings/static/js/async/123.fedcba98.js': bigScript,
  'listings-rebuilt/mf-manifest.json': '{"name":"listings","rebuilt":true}',
};
for (const [path, body] of Object.entries(files)) {
  mkdirSync(dirname(join(fixture, path)), { recursive: true });
  writeFileSync(join(fixture, path), body);
}
const indexHtml = files['shell/index.html'];
const appHtml = files['shell/app.html'];
const unavailable = { message: 'De dienst is tijdelijk niet bereikbaar. Probeer het later opnieuw.' };

async function listen(server: Server, host = '127.0.0.1'): Promise<string> {
  server.listen(0, host);
  await once(server, 'listening');
  return `http://${host}:${(server.address() as AddressInfo).port}`;
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
  // As helmet sends it: wrong on plain-http localhost, so the edge drops it.
  res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'gateway', 'strict-transport-security': 'max-age=31536000' }).end(JSON.stringify({ url: req.url }));
});
new WebSocketServer({ server: upstream }).on('connection', (socket, req) => {
  socket.on('message', (data) => socket.send(`${req.url} ${String(data)}`));
});

let edge: Edge;
let base = '';

beforeAll(async () => {
  const upstreamUrl = await listen(upstream);
  // The stand-in plays the auth service for /dev/mail too.
  edge = createEdge({ gatewayUrl: upstreamUrl, shellDir, remotes: { listings: remoteDir }, mailUrl: upstreamUrl });
  base = await listen(edge);
});

afterAll(async () => {
  edge.closeAllConnections();
  upstream.closeAllConnections();
  await Promise.all([close(edge), close(upstream)]);
  rmSync(fixture, { recursive: true, force: true });
});

/** A request exactly as written (fetch() would normalise `..`): status and body. */
const send = (path: string, opts: { method?: string; headers?: Record<string, string>; at?: string } = {}) =>
  new Promise<{ status?: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(opts.at ?? base);
    request({ hostname, port, path, method: opts.method ?? 'GET', headers: opts.headers }, async (res) => {
      let body = '';
      for await (const chunk of res) body += chunk;
      resolve({ status: res.statusCode, headers: res.headers, body });
    })
      .on('error', reject)
      .end();
  });
const raw = async (path: string) => (await send(path)).status;

const INVALID_PATH = { message: 'Ongeldig pad.' };

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

  it('refuses every way around the gateway with 400 before routing: dot segments, encoded slashes, backslashes', async () => {
    seen.length = 0;
    const bypasses: Array<[string, string]> = [
      ['GET', '/dev/mail/../../openapi.json'],
      ['GET', '/dev/mail/%2e%2e/%2e%2e/.well-known/jwks.json'],
      ['GET', '/api/category/../../readyz'],
      ['POST', '/dev/mail/../../api/auth/login'],
      ['GET', '/dev/mail/%2E%2e/%2e./openapi.json'],
      ['GET', '/api/..%2f..%2freadyz'],
      ['GET', '/api/%2e%2e%5creadyz'],
      ['GET', '/api\\..\\readyz'],
      ['GET', '/api/category/%zz'],
      ['GET', '/uploads/../dev/mail'],
      ['GET', '/chathub/../healthz'],
    ];
    for (const [method, path] of bypasses) {
      const res = await send(path, { method });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(JSON.parse(res.body), path).toEqual(INVALID_PATH);
    }
    // Nothing reached the gateway or the mail outbox.
    expect(seen).toEqual([]);
  });

  it('collapses repeated slashes before routing and passes the collapsed path on', async () => {
    seen.length = 0;
    expect((await send('//api//category?x=a//b')).status).toBe(201);
    expect(seen.map((s) => s.url)).toEqual(['/api/category?x=a//b']);
  });

  it('overwrites the forwarding headers a client sends, so the gateway sees the real client', async () => {
    seen.length = 0;
    const spoofed = { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', 'x-forwarded-port': '443', 'x-real-ip': '1.2.3.4', forwarded: 'for=1.2.3.4' };
    expect((await send('/api/category', { headers: spoofed })).status).toBe(201);
    expect((await send('/dev/mail', { headers: spoofed })).status).toBe(201);
    for (const { headers } of seen) {
      expect(headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(headers['x-forwarded-proto']).toBe('http');
      expect(headers['x-forwarded-host']).toBe(new URL(base).host);
      for (const name of ['x-forwarded-port', 'x-real-ip', 'forwarded']) expect(headers[name], name).toBeUndefined();
    }
    expect(seen).toHaveLength(2);
  });

  it('drops a service’s HSTS header: the edge is plain http', async () => {
    const res = await fetch(`${base}/api/category`);
    expect(res.status).toBe(201);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  const outside = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(!outside)('serves /dev/mail to clients on this machine only, by the connection’s address', async () => {
    const open = createEdge({ gatewayUrl: base, shellDir, mailUrl: base });
    const at = await listen(open, outside);
    try {
      seen.length = 0;
      // Connected through the network interface: not loopback, whatever the headers claim.
      for (const path of ['/dev/mail', '/dev/mail/messages.json']) {
        const res = await send(path, { at, headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' } });
        expect(res.status, path).toBe(404);
      }
      expect(seen).toEqual([]);
      expect((await send('/dev/mail/messages.json')).status).toBe(201);
      expect(seen.map((s) => s.url)).toEqual(['/dev/mail/messages.json']);
    } finally {
      open.closeAllConnections();
      await close(open);
    }
  });

  it('serves the frontends with a Content-Security-Policy without inline script, no framing, a Referrer-Policy, and no HSTS', async () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("img-src 'self' https: data: blob:");
    for (const path of ['/', '/dashboard/search', '/static/js/main.0123abcd.js', '/remotes.json', '/mfe/listings/mf-manifest.json', '/missing.json', '/mfe/nope/x.js']) {
      const res = await fetch(base + path);
      expect(res.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
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
      expect(await res.text(), path).toBe(appHtml);
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

  it('serves prerendered pages, app.html at other client-side routes, 404 for missing files, only GET and HEAD', async () => {
    const pages: Array<[string, string | undefined]> = [
      ['/', indexHtml],
      ['/index.html', indexHtml],
      ['/over-ons', files['shell/over-ons/index.html']],
      ['/over-ons/', files['shell/over-ons/index.html']],
      ['/dashboard/search', appHtml],
      ['/dashboard/listing/42', appHtml],
      ['/mfeX/a', appHtml],
    ];
    for (const [path, html] of pages) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(await res.text(), path).toBe(html);
    }
    for (const path of ['/static/js/missing.js', '/missing.json', '/mfe', '/mfe/', '/mfe/listings', '/mfe/listings/', '/mfe/listings/nope.js', '/mfe/listings/search', '/mfe/nope/mf-manifest.json']) {
      expect((await fetch(base + path)).status, path).toBe(404);
    }
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${base}/static/js/main.0123abcd.js`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bigScript.length));
  });

  it('caches hashed files for a year, and asks again for everything else', async () => {
    const expectations: Array<[string, string, string]> = [
      ['/static/js/main.0123abcd.js', 'public, max-age=31536000, immutable', 'text/javascript; charset=utf-8'],
      ['/static/css/main.89abcdef01234567.css', 'public, max-age=31536000, immutable', 'text/css; charset=utf-8'],
      ['/mfe/listings/static/js/async/123.fedcba98.js', 'public, max-age=31536000, immutable', 'text/javascript; charset=utf-8'],
      ['/', 'no-cache', 'text/html; charset=utf-8'],
      ['/remotes.json', 'no-cache', 'application/json; charset=utf-8'],
      ['/favicon.ico', 'no-cache', 'image/x-icon'],
      ['/mfe/listings/mf-manifest.json', 'no-cache', 'application/json; charset=utf-8'],
      ['/mfe/listings/remoteEntry.js', 'no-cache', 'text/javascript; charset=utf-8'],
    ];
    for (const [path, cacheControl, contentType] of expectations) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe(cacheControl);
      expect(res.headers.get('content-type'), path).toBe(contentType);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${base}/remotes.json`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${base}/remotes.json`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${base}/remotes.json`, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);
  });

  it('compresses scripts with brotli or gzip as the client accepts, the same bytes every time', async () => {
    const get = (path: string, acceptEncoding: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const { hostname, port } = new URL(base);
        request({ hostname, port, path, headers: { 'accept-encoding': acceptEncoding } }, async (res) => {
          const chunks: Buffer[] = [];
          for await (const chunk of res) chunks.push(chunk as Buffer);
          resolve({ headers: res.headers, body: Buffer.concat(chunks) });
        })
          .on('error', reject)
          .end();
      });
    const path = '/mfe/listings/static/js/async/123.fedcba98.js';
    const br = await get(path, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.body.length).toBeLessThan(bigScript.length / 5);
    expect(brotliDecompressSync(br.body).toString()).toBe(bigScript);
    expect((await get(path, 'gzip, br')).body.equals(br.body)).toBe(true);

    const gz = await get(path, 'gzip, br;q=0');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(bigScript);

    const plain = await get(path, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(bigScript);
    // Small files and images go as they are.
    expect((await get('/remotes.json', 'br')).headers['content-encoding']).toBeUndefined();
    expect((await get('/favicon.ico', 'br')).headers['content-encoding']).toBeUndefined();
  });

  it('never serves files outside the directory of the shell or of a remote', async () => {
    // infra/local/package.json is one level up from the shell; the shell is next to the remote.
    writeFileSync(join(fixture, 'package.json'), '{}');
    // Refused as paths (400) before any file is looked up.
    for (const path of ['/..%2fpackage.json', '/%2e%2e/package.json', '/mfe/listings/..%2f..%2fpackage.json', '/mfe/listings/../shell/index.html', '/mfe/listings/%2e%2e%2fshell%2findex.html', '/a%00.js', '/%E0%A4%A.js']) {
      expect(await raw(path), path).toBe(400);
    }
    // Well-formed but not valid UTF-8 once decoded: no file.
    expect(await raw('/%E0%A4.js')).toBe(400);
  });

  it('stops serving a remote on request (503), and serves it from another directory', async () => {
    try {
      edge.blockRemote('listings', true);
      expect((await fetch(`${base}/mfe/listings/mf-manifest.json`)).status).toBe(503);
      expect((await fetch(`${base}/mfe/listings/remoteEntry.js`)).status).toBe(503);
      expect((await fetch(`${base}/remotes.json`)).status).toBe(200);
      edge.blockRemote('listings', false);
      expect((await fetch(`${base}/mfe/listings/mf-manifest.json`)).status).toBe(200);

      edge.serveRemoteFrom('listings', rebuiltDir);
      expect(await (await fetch(`${base}/mfe/listings/mf-manifest.json`)).json()).toEqual({ name: 'listings', rebuilt: true });
      edge.serveRemoteFrom('listings', undefined);
      expect(await (await fetch(`${base}/mfe/listings/mf-manifest.json`)).json()).toEqual({ name: 'listings' });
      expect(() => edge.blockRemote('nope', true)).toThrow(/no remote named nope/);
    } finally {
      edge.blockRemote('listings', false);
      edge.serveRemoteFrom('listings', undefined);
    }
  });

  it('tells the developer to build the frontend when the shell has no build', async () => {
    const unbuilt = createEdge({ gatewayUrl: base, shellDir: join(fixture, 'nothing-here'), remotes: {} });
    const url = await listen(unbuilt);
    try {
      const res = await fetch(`${url}/dashboard/search`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build -w @ruilplein/shell');
      expect((await fetch(`${url}/mfe/listings/mf-manifest.json`)).status).toBe(404);
    } finally {
      unbuilt.closeAllConnections();
      await close(unbuilt);
    }
  });
});

describe('the local edge without a gateway', () => {
  it('answers /api with 502 and a Dutch JSON message, and drops websocket upgrades', async () => {
    const gone = createServer();
    const gatewayUrl = await listen(gone);
    await close(gone);
    const lonely = createEdge({ gatewayUrl, shellDir });
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
