import { createReadStream, statSync } from 'node:fs';
import { createServer, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { createProxyServer } from 'http-proxy-3';

export interface EdgeOptions {
  gatewayUrl: string;
  /** The frontend: files as they are, every other path gets index.html (client-side routes). */
  staticDir: string;
}

// The Kubernetes Ingress's Prefix rules: whole path segments, case-sensitive. The path itself goes
// upstream untouched; the gateway matches case-insensitively (`/api/Auth/activate`).
const gatewayPrefixes = ['/api', '/chathub', '/uploads'];
const toGateway = (url = '/') => {
  const path = url.split('?', 1)[0] ?? '/';
  return gatewayPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
};

const unavailable = JSON.stringify({ message: 'De dienst is tijdelijk niet bereikbaar. Probeer het later opnieuw.' });

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The one origin the browser talks to locally, shaped like the Ingress. Not listening yet. */
export function createEdge(opts: EdgeOptions): Server {
  const proxy = createProxyServer({ target: opts.gatewayUrl, ws: true, xfwd: true });
  proxy.on('error', (_err, _req, res) => {
    if (!(res instanceof ServerResponse)) return res.destroy();
    if (res.headersSent) return res.destroy();
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' }).end(unavailable);
  });

  const server = createServer((req, res) => (toGateway(req.url) ? proxy.web(req, res) : serveStatic(opts.staticDir, req, res)));
  server.on('upgrade', (req, socket, head) => (toGateway(req.url) ? proxy.ws(req, socket, head) : socket.destroy()));
  return server;
}

function serveStatic(dir: string, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return res.writeHead(405, { allow: 'GET, HEAD' }).end();
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://edge').pathname);
  } catch {
    return res.writeHead(400).end();
  }
  const root = resolve(dir);
  let file = resolve(root, `.${path}`);
  if (file !== root && !file.startsWith(root + sep)) return res.writeHead(404).end();
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) {
    // A missing asset is a 404; anything else is a client-side route.
    if (extname(path)) return res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Niet gevonden');
    file = join(root, 'index.html');
  }
  res.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
