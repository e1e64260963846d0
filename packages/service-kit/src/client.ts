// Who the client is. X-Forwarded-For is believed only as far as the deployment declares proxies
// in front (TRUSTED_PROXY_HOPS): the outermost one (the local edge, the ingress controller)
// overwrites the header with the address it saw, each one behind appends. Anything a client
// writes into the header itself lies beyond the trusted hops and is ignored.
import type { IncomingMessage } from 'node:http';
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

// The same answers without express, for a plain node request (the gateway's hot path): exactly
// what `req.ip`, `req.protocol` and `req.host` give with `trust proxy` set to `hops`.

/**
 * The address `hops` entries from the right of [...X-Forwarded-For, peer], or the leftmost one when
 * the header has fewer. Empty entries and spaces are skipped, as proxy-addr does.
 */
export function forwardedFor(req: IncomingMessage, hops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  const header = req.headers['x-forwarded-for'];
  if (hops === 0 || typeof header !== 'string' || header === '') return peer;
  let found = peer;
  let seen = 0;
  let start = header.length;
  let end = header.length;
  for (let i = header.length - 1; i >= 0; i--) {
    const c = header.charCodeAt(i);
    if (c === 0x20) {
      if (start === end) start = end = i;
    } else if (c === 0x2c) {
      if (start !== end) {
        found = header.substring(start, end);
        if (++seen === hops) return found;
      }
      start = end = i;
    } else {
      start = i;
    }
  }
  return start !== end ? header.substring(start, end) : found;
}

/** `http` or `https` as the outermost trusted proxy saw it; the connection's own without one. */
export function forwardedProto(req: IncomingMessage, hops: number): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (hops === 0) return own;
  const header = req.headers['x-forwarded-proto'];
  if (typeof header !== 'string' || header === '') return own;
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.substring(0, comma)).trim();
}

/** The host the client asked for, as the outermost trusted proxy saw it. */
export function forwardedHost(req: IncomingMessage, hops: number): string | undefined {
  const header = req.headers['x-forwarded-host'];
  if (hops === 0 || typeof header !== 'string' || header === '') return req.headers.host || undefined;
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.substring(0, comma).trimEnd()) || undefined;
}
