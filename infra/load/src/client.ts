// One member's connection to the platform, as a browser has its own: keep-alive sockets and, on
// this machine, its own source address. Locally every member would otherwise come from 127.0.0.1
// and share the per-address limits (the gateway's 600 a minute, auth's registrations an hour)
// that a city's members each have for themselves; Linux answers the whole of 127.0.0.0/8.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { isTracedPath, type TraceLog } from './traces.ts';

export interface Answer<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the answer is JSON; its text otherwise. */
  body: T;
  /** From the request leaving to the last byte of the answer. */
  ms: number;
}

export interface CallInit {
  token?: string;
  json?: unknown;
  form?: FormData;
  /** An urlencoded form (the local checkout's buttons). */
  fields?: Record<string, string>;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** Whether the URL's host is this machine's loopback, where a member can have an address of its own. */
export function isLoopbackHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';
}

/** Member `n`'s source address: 127.1.x.y, never .0 or .255 in the last place. */
export function memberAddress(n: number): string {
  return `127.1.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}

export class Client {
  readonly base: URL;
  /** The source address (loopback targets only), for the hub's websocket too. */
  readonly localAddress: string | undefined;
  /** With `--traces`: every traced request gets a trace of its own, remembered here. */
  readonly traces: TraceLog | undefined;
  readonly #agent: Agent;

  constructor(base: URL, localAddress?: string, traces?: TraceLog) {
    this.base = base;
    this.localAddress = localAddress;
    this.traces = traces;
    // As a browser: a few connections per origin, kept open.
    this.#agent = new Agent({ keepAlive: true, maxSockets: 6 });
  }

  /** Options that put a connection on this member's address (IPv4 then: the edge listens on 127.0.0.1). */
  get socketOptions(): { localAddress?: string; family?: 4 } {
    return this.localAddress ? { localAddress: this.localAddress, family: 4 } : {};
  }

  async call<T>(method: string, path: string, init: CallInit = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let payload: Buffer | undefined;
    if (init.json !== undefined) {
      payload = Buffer.from(JSON.stringify(init.json));
      headers['content-type'] = 'application/json';
    } else if (init.form) {
      // The browser's own encoding of a FormData (boundary and all).
      const encoded = new Response(init.form);
      payload = Buffer.from(await encoded.arrayBuffer());
      headers['content-type'] = encoded.headers.get('content-type')!;
    } else if (init.fields) {
      payload = Buffer.from(new URLSearchParams(init.fields).toString());
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (payload) headers['content-length'] = String(payload.length);
    const url = new URL(path, this.base);
    Object.assign(headers, this.traceHeaders(method, url.pathname));
    const started = performance.now();
    return new Promise<Answer<T>>((resolve, reject) => {
      const req = request(
        { protocol: url.protocol, hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers, agent: this.#agent, ...this.socketOptions },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const ms = performance.now() - started;
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            if (text && res.headers['content-type']?.includes('json')) {
              try {
                body = JSON.parse(text);
              } catch {
                // kept as text
              }
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, ms });
          });
        },
      );
      req.setTimeout(init.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${(init.timeoutMs ?? 30_000) / 1000} s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A `traceparent` of a new trace for a request the edge traces (with `--traces`); none otherwise. */
  traceHeaders(method: string, path: string): { traceparent?: string } {
    return this.traces && isTracedPath(path) ? { traceparent: this.traces.header(method, path) } : {};
  }

  close(): void {
    this.#agent.destroy();
  }
}
