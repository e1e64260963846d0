import { readFile, stat } from 'node:fs/promises';
import { createServer, ServerResponse, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { basename, extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { isLoopback } from '@ruilplein/service-kit/client';
import { acceptPath, checkedUrl } from '@ruilplein/service-kit/paths';
import { takesConnections } from '@ruilplein/service-kit/probe';
import { createProxyServer } from 'http-proxy-3';
import { GatewayPool } from './gateways.ts';

export interface EdgeOptions {
  /** The gateway, or several comma-separated (the clustered mode): each request goes to one that is not known to be down. */
  gatewayUrl: string;
  /** The shell's build (`shell/dist`): served at `/`; a path without a file extension gets `<path>/index.html` (a prerendered page), else its app.html. */
  shellDir: string;
  /** Each remote's build by name (`{ listings: '…/mfe-listings/dist' }`), served under `/mfe/<name>/`. */
  remotes?: Record<string, string>;
  /**
   * The auth service: `/dev/mail` (local mode's mail outbox) goes there, for clients on this machine
   * only. It shows the mail of every service: they all keep it in one database (service-kit mail/).
   */
  mailUrl?: string;
}

/** Switches for the browser tests: the failure and the redeploy of one remote, without touching its build. */
export interface EdgeControls {
  /** true: everything under `/mfe/<name>/` answers 503, as if the remote's host were down. */
  blockRemote(name: string, blocked: boolean): void;
  /** Serve `/mfe/<name>/` from another directory (a rebuilt copy); undefined: its own build again. */
  serveRemoteFrom(name: string, dir: string | undefined): void;
}

export type Edge = Server & EdgeControls;

// The Kubernetes Ingress's Prefix rules: whole path segments, case-sensitive. Routing happens on the
// checked path (acceptPath: no `..`, no encoded slashes), which goes upstream as it is; the gateway
// matches case-insensitively (`/api/Auth/activate`).
const gatewayPrefixes = ['/api', '/chathub', '/notificationhub', '/uploads'];
const toGateway = (url = '/') => {
  const path = url.split('?', 1)[0] ?? '/';
  return gatewayPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
};

const toMail = (url = '/') => {
  const path = url.split('?', 1)[0] ?? '/';
  return path === '/dev/mail' || path.startsWith('/dev/mail/');
};

/**
 * What the browser may do on a page of the shell or a remote: scripts, styles and fonts from this
 * origin only (the built index.html has no inline script; Module Federation loads the remotes from
 * here too), images also from map tile servers, never framed. The nginx of the frontend images
 * sends the same (infra/docker/nginx.conf; its test compares).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with every frontend answer. No HSTS: the edge is plain http on this machine. */
export const FRONTEND_SECURITY_HEADERS: Readonly<OutgoingHttpHeaders> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The edge is the outermost hop: the forwarding headers say what it saw, replacing whatever the
 * client sent (the gateway believes exactly one hop, see service-kit client.ts).
 */
function setForwarded(req: IncomingMessage) {
  req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  req.headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) req.headers['x-forwarded-host'] = req.headers.host;
  else delete req.headers['x-forwarded-host'];
  for (const name of ['x-forwarded-port', 'x-real-ip', 'forwarded']) delete req.headers[name];
}

/** The largest body the edge reads before forwarding, so a refused one can go to another gateway. */
const RESENDABLE_BODY = 64 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    // A client that leaves before its body ends: nothing to forward (after 'end' this changes nothing).
    req.once('close', () => reject(new Error('the client left before its body ended')));
  });
}

const unavailable = JSON.stringify({ message: 'De dienst is tijdelijk niet bereikbaar. Probeer het later opnieuw.' });

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.txt', '.svg']);
/** `main.3f2a1b4c.js`, `123.0a1b2c3d4e5f6a7b.css`: the name changes with the content. */
const contentHashed = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The one origin the browser talks to locally, shaped like the Ingress. Not listening yet. */
export function createEdge(opts: EdgeOptions): Edge {
  const gateways = new GatewayPool(opts.gatewayUrl.split(','));
  const proxy = createProxyServer({ ws: true });
  const gatewayFailed = (res: ServerResponse | Socket) => {
    if (!(res instanceof ServerResponse)) return void res.destroy();
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' }).end(unavailable);
  };
  proxy.on('error', (_err, _req, res) => gatewayFailed(res));
  /**
   * To a gateway; one that refuses is passed over and the request goes to the next. A body is read
   * first to send it again (with several gateways, up to RESENDABLE_BODY bytes: a form, not photos);
   * a larger one streams through and meets a refusal with a 502.
   */
  const toGatewayWeb = async (req: IncomingMessage, res: ServerResponse) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const streamed = req.headers['transfer-encoding'] !== undefined || length > RESENDABLE_BODY;
    const body = gateways.size > 1 && length > 0 && !streamed ? await readBody(req) : undefined;
    const tried = new Set<string>();
    const attempt = () => {
      const target = gateways.pick(tried)!;
      tried.add(target);
      proxy.web(req, res, { target, ...(body && { buffer: Readable.from([body]) }) }, (err) => {
        if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
          gateways.refused(target);
          // Nothing reached that gateway: the request goes to the next, unless its body is gone.
          if ((body || (length === 0 && !streamed)) && !res.headersSent && gateways.pick(tried)) return attempt();
        }
        gatewayFailed(res);
      });
    };
    attempt();
  };
  /** The proxy closes the client's socket when the gateway refuses: with several, each is checked first. */
  const toGatewayWs = async (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const tried = new Set<string>();
    let target = gateways.pick(tried);
    while (target && gateways.size > 1 && !(await takesConnections(target))) {
      gateways.refused(target);
      tried.add(target);
      target = gateways.pick(tried);
    }
    if (!target || socket.destroyed) return void socket.destroy();
    proxy.ws(req, socket, head, { target });
  };

  const mailProxy = opts.mailUrl ? createProxyServer({ target: opts.mailUrl }) : undefined;
  mailProxy?.on('error', (_err, _req, res) => {
    if (res instanceof ServerResponse && !res.headersSent) res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' }).end(unavailable);
    else res.destroy();
  });

  const remotes = new Map(Object.entries(opts.remotes ?? {}).map(([name, dir]) => [name, { own: dir, dir, blocked: false }]));
  const remote = (name: string) => {
    const found = remotes.get(name);
    if (!found) throw new Error(`the edge serves no remote named ${name}`);
    return found;
  };
  const files = new FileCache();

  const frontend = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { ...FRONTEND_SECURITY_HEADERS, allow: 'GET, HEAD' }).end();
    const pathname = (req.url ?? '/').split('?', 1)[0]!;
    if (pathname !== '/mfe' && !pathname.startsWith('/mfe/')) return files.serve(req, res, opts.shellDir, pathname, { spa: true });
    const [, name = '', rest = '/'] = /^\/mfe\/?([^/]*)(.*)$/.exec(pathname) ?? [];
    const found = remotes.get(name);
    if (!found) return void text(res, 404, 'Niet gevonden');
    if (found.blocked) return void text(res, 503, 'Tijdelijk niet beschikbaar');
    // A remote has no client-side routes: what is not a file is a 404.
    return files.serve(req, res, found.dir, rest || '/', { spa: false });
  };

  // Services answer plain http here: an HSTS header of theirs would be wrong on localhost.
  for (const p of [proxy, mailProxy]) p?.on('proxyRes', (proxyRes) => delete proxyRes.headers['strict-transport-security']);

  const server = createServer((req, res) => {
    if (!acceptPath(req, res)) return;
    if (toGateway(req.url)) {
      setForwarded(req);
      return void toGatewayWeb(req, res).catch(() => gatewayFailed(res));
    }
    if (toMail(req.url)) {
      // The mail outbox holds every member's links: for this machine only, by the connection's
      // own address (headers can say anything).
      if (!mailProxy || !isLoopback(req.socket.remoteAddress)) return void text(res, 404, 'Niet gevonden');
      setForwarded(req);
      return mailProxy.web(req, res);
    }
    frontend(req, res).catch(() => (res.headersSent ? res.destroy() : text(res, 500, 'Interne fout')));
  });
  server.on('upgrade', (req, socket, head) => {
    const url = checkedUrl(req.url);
    if (url === undefined || !toGateway(url)) return socket.destroy();
    req.url = url;
    setForwarded(req);
    void toGatewayWs(req, socket as Socket, head);
  });
  server.on('close', () => gateways.stop());
  return Object.assign(server, {
    blockRemote: (name: string, blocked: boolean) => void (remote(name).blocked = blocked),
    serveRemoteFrom: (name: string, dir: string | undefined) => {
      const found = remote(name);
      found.dir = dir ?? found.own;
    },
  });
}

const text = (res: ServerResponse, status: number, body: string) =>
  res.writeHead(status, { ...FRONTEND_SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(body);

const notBuilt = (dir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ruilplein: frontend not built</title></head>
<body>
<h1>The frontend is not built</h1>
<p>There is no <code>${dir.replace(/[<>&]/g, '')}/app.html</code>. Run <code>npm run build -w @ruilplein/shell</code>
(and <code>-w @ruilplein/mfe-listings</code>, <code>mfe-trades</code>, <code>mfe-admin</code>), or restart <code>npm start</code>, which builds what is missing.</p>
<p>The API answers meanwhile, for example <a href="/api/category">/api/category</a>.</p>
</body></html>`;

const compress = { br: promisify(brotliCompress), gzip: promisify(gzip) };
type Encoding = keyof typeof compress;

/** What the client accepts, best first: `br`, `gzip` (an explicit `;q=0` refuses). */
function accepted(header: string | string[] | undefined): Encoding[] {
  const offers = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    offers.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: Encoding) => (offers.get(name) ?? offers.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

interface Entry {
  /** size and mtime: a rebuilt file gets a new entry */
  version: string;
  body: Promise<Buffer>;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

/** Files read once and compressed once per version, answered with the cache headers of their kind. */
class FileCache {
  private entries = new Map<string, Entry>();

  async serve(req: IncomingMessage, res: ServerResponse, dir: string, urlPath: string, { spa }: { spa: boolean }): Promise<void> {
    let path: string;
    try {
      path = decodeURIComponent(urlPath);
    } catch {
      return void text(res, 400, 'Ongeldig pad');
    }
    const root = resolve(dir);
    let file = resolve(root, `.${path}`);
    if (path.includes('\0') || (file !== root && !file.startsWith(root + sep))) return void text(res, 404, 'Niet gevonden');
    let info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      // A missing asset is a 404; in the shell anything else is a page: prerendered
      // (`/over-ons` → over-ons/index.html, `/` → index.html) or a client-side route (app.html).
      if (!spa || extname(path)) return void text(res, 404, 'Niet gevonden');
      for (const candidate of [join(file, 'index.html'), join(root, 'app.html')]) {
        file = candidate;
        info = await stat(file).catch(() => undefined);
        if (info?.isFile()) break;
      }
      if (!info?.isFile()) return void res.writeHead(503, { ...FRONTEND_SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(notBuilt(dir));
    }

    const ext = extname(file).toLowerCase();
    const etag = `W/"${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}"`;
    const headers: OutgoingHttpHeaders = {
      ...FRONTEND_SECURITY_HEADERS,
      'content-type': contentTypes[ext] ?? 'application/octet-stream',
      // Hashed files never change under their name; everything else (index.html, remotes.json,
      // mf-manifest.json, a remote entry without hash) is asked again on every use.
      'cache-control': contentHashed.test(basename(file)) ? IMMUTABLE : 'no-cache',
      etag,
    };
    if (compressible.has(ext)) headers.vary = 'accept-encoding';
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();

    const entry = this.entry(file, etag);
    let body = await entry.body;
    const encoding = compressible.has(ext) && body.length >= 1024 ? accepted(req.headers['accept-encoding'])[0] : undefined;
    if (encoding) {
      body = await (entry.encoded[encoding] ??= entry.body.then((raw) => encode(encoding, raw)));
      headers['content-encoding'] = encoding;
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  }

  private entry(file: string, version: string): Entry {
    const known = this.entries.get(file);
    if (known?.version === version) return known;
    const entry: Entry = { version, body: readFile(file), encoded: {} };
    // A file that vanished or failed to read is tried again next time.
    entry.body.catch(() => this.entries.get(file) === entry && this.entries.delete(file));
    this.entries.set(file, entry);
    return entry;
  }
}

const encode = (encoding: Encoding, raw: Buffer) =>
  encoding === 'br'
    ? compress.br(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })
    : compress.gzip(raw, { level: 9 });
