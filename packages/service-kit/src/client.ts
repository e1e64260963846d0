// Who the client is. X-Forwarded-For is believed only as far as the deployment declares proxies
// in front (TRUSTED_PROXY_HOPS): the outermost one (the local edge, the ingress controller)
// overwrites the header with the address it saw, each one behind appends. Anything a client
// writes into the header itself lies beyond the trusted hops and is ignored.
import { isIP } from 'node:net';
import type { Express, Request } from 'express';
import { ConfigError } from './config.ts';

/** Proxies in front of a domain service by default: the ingress controller (or local edge), then the gateway. */
export const SERVICE_PROXY_HOPS = 2;
/** Proxies in front of the gateway by default: the ingress controller (or local edge). */
export const GATEWAY_PROXY_HOPS = 1;

const parsed = new Map<string, number>();

/**
 * TRUSTED_PROXY_HOPS: how many proxies sit in front of this process, counted from it; `fallback`
 * when unset. Parsed once per value; a malformed value stops the start with one line.
 */
export function trustedProxyHops(fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.TRUSTED_PROXY_HOPS?.trim();
  if (raw === undefined || raw === '') return fallback;
  let hops = parsed.get(raw);
  if (hops === undefined) {
    if (!/^\d{1,2}$/.test(raw)) throw new ConfigError(`config: TRUSTED_PROXY_HOPS is invalid (expected a number of proxies, 0 to 99, got ${JSON.stringify(raw)})`);
    hops = Number(raw);
    parsed.set(raw, hops);
  }
  return hops;
}

/** Makes `req.ip` the client as seen by the outermost of `hops` trusted proxies (express counts them). */
export function trustProxies(app: Express, hops: number): void {
  app.set('trust proxy', hops);
}

/** The client's address for per-client limits: `req.ip` as `trustProxies` resolved it. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The peer of the connection itself (never a header) is this machine. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}
