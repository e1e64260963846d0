import type { RouteDef } from '@ruilplein/contracts';
import { match } from 'path-to-regexp';

export const SERVICES = ['auth', 'listing', 'trade', 'chat', 'moderation', 'payment'] as const;
export type Service = (typeof SERVICES)[number];

/**
 * ARCHITECTURE.md "Who owns which route", read literally: `/x/*` is `/x` and everything below it,
 * `/x*` is every path that starts with `/x` (`/api/listing`, `/api/listings`, `/api/listing/5`),
 * and a bare `/x` is that path alone (a trailing slash allowed, as express allows it).
 * The table's `/chathub` is written `/chathub/*`: socket.io asks for `/chathub/?EIO=…` and SignalR
 * for `/chathub/negotiate`.
 */
export const ROUTE_TABLE: Record<Service, readonly string[]> = {
  auth: ['/api/auth/*', '/api/user/*', '/api/admin/users', '/api/admin/delete/*', '/api/geo/*', '/uploads/avatars/*'],
  listing: ['/api/category', '/api/listing*', '/api/wishlist/*', '/uploads/listings/*'],
  trade: ['/api/tradeoffer/*', '/api/review/*'],
  chat: ['/api/chat/*', '/chathub/*'],
  moderation: ['/api/report/*', '/api/ban/*', '/api/warning/*', '/api/admin/stats'],
  payment: ['/api/payment/*'],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function prefixPattern(pattern: string): RegExp {
  if (pattern.endsWith('/*')) return new RegExp(`^${escape(pattern.slice(0, -2))}(?:/.*)?$`, 'i');
  if (pattern.endsWith('*')) return new RegExp(`^${escape(pattern.slice(0, -1))}`, 'i');
  return new RegExp(`^${escape(pattern)}/?$`, 'i');
}

const compiledTable = SERVICES.flatMap((service) => ROUTE_TABLE[service].map((p) => ({ service, regex: prefixPattern(p) })));

/** The service owning a path (without query string), case-insensitively; undefined when nobody does. */
export function serviceFor(path: string): Service | undefined {
  return compiledTable.find((entry) => entry.regex.test(path))?.service;
}

/** The chat service's real-time hub: the only path that may be upgraded to a websocket. */
export const isHubPath = (path: string) => /^\/chathub(?:\/|$)/i.test(path);

/** Photos and avatars are public; ARCHITECTURE.md "Shape". */
const UPLOADS: Pick<RouteDef, 'method' | 'path'> = { method: 'get', path: '/uploads/*file' };

/**
 * Compiles the routes that need no token once: method plus express path pattern, matched
 * case-insensitively like express does. HEAD counts as GET, as in express.
 */
export function publicRoutes(routes: readonly RouteDef[]): (method: string, path: string) => boolean {
  const compiled = [...routes.filter((r) => r.access === 'public'), UPLOADS].map((r) => ({
    method: r.method.toUpperCase(),
    matches: match(r.path, { decode: false, sensitive: false }),
  }));
  return (method, path) => {
    const m = method === 'HEAD' ? 'GET' : method;
    return compiled.some((r) => r.method === m && r.matches(path) !== false);
  };
}
