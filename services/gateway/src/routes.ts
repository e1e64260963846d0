// The gateway's routing, derived from the contracts' registry (packages/contracts/src/registry.ts):
// no table of its own, so a route is routed the moment its contract exists.
// Which service owns a path is the contracts' `serviceFor`; what is left here is the gateway's own.
import type { RouteDef } from '@ruilplein/contracts';
import { pathToRegexp } from 'path-to-regexp';

/** The chat service's real-time hub: the only path that may be upgraded to a websocket. */
export const isHubPath = (path: string) => /^\/chathub(?:\/|$)/i.test(path);

/** Photos and avatars are public; docs/architecture.md "Shape". */
const UPLOADS: Pick<RouteDef, 'method' | 'path'> = { method: 'get', path: '/uploads/*file' };

/**
 * Compiles the routes that need no token once: per method, one regular expression of their express
 * path patterns, matched case-insensitively like express does. HEAD counts as GET, as in express.
 */
export function publicRoutes(routes: readonly RouteDef[]): (method: string, path: string) => boolean {
  const byMethod = new Map<string, string[]>();
  for (const r of [...routes.filter((r) => r.access === 'public'), UPLOADS]) {
    const method = r.method.toUpperCase();
    byMethod.set(method, [...(byMethod.get(method) ?? []), r.path]);
  }
  const compiled = new Map([...byMethod].map(([method, paths]) => [method, pathToRegexp(paths, { sensitive: false }).regexp]));
  return (method, path) => compiled.get(method === 'HEAD' ? 'GET' : method)?.test(path) ?? false;
}
