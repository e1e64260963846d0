// Who the client is, for a plain node request: exactly what express' `req.ip`, `req.protocol` and
// `req.host` answer with `trust proxy` set to the number of trusted hops (the kit's trustProxies,
// TRUSTED_PROXY_HOPS): the outermost trusted proxy overwrites X-Forwarded-For, each one behind it
// appends; anything a client wrote lies beyond the trusted hops and is ignored.
import type { IncomingMessage } from 'node:http';

/**
 * The address `hops` entries from the right of [...X-Forwarded-For, peer], or the leftmost one when
 * the header has fewer. Empty entries and spaces are skipped, as proxy-addr does.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
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
