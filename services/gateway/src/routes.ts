// The gateway's routing, derived from the contracts' registry (packages/contracts/src/registry.ts):
// no table of its own, so a route is routed the moment its contract exists.
// Which service owns a path is the contracts' `serviceFor`; what is left here is the gateway's own.
import type { RouteDef } from '@ruilplein/contracts';
import { pathToRegexp } from 'path-to-regexp';

/** The live hubs (chat's, notification's): the only paths that may be upgraded to a websocket. */
export const isHubPath = (path: string) => /^\/(?:chathub|notificationhub)(?:\/|$)/i.test(path);

/** Photos and avatars are public; docs/architecture.md "Shape". */
const UPLOADS: Pick<RouteDef, 'method' | 'path'> = { method: 'get', path: '/uploads/*file' };

/**
 * Compiles once, per method, the routes' express path patterns in the registry's order, matched
 * case-insensitively like express does; HEAD counts as GET, as in express. The answer is `has` of
 * the first route a request matches: the order a service registers its routes in, so
 * `/api/listing/my` (members only) is not taken for the public `/api/listing/:id` after it.
 */
function firstMatch(routes: readonly Pick<RouteDef, 'method' | 'path' | 'access' | 'whileSuspended'>[], has: (r: Pick<RouteDef, 'access' | 'whileSuspended'>) => boolean) {
  const byMethod = new Map<string, { pattern: RegExp; yes: boolean }[]>();
  for (const r of routes) {
    const method = r.method.toUpperCase();
    byMethod.set(method, [...(byMethod.get(method) ?? []), { pattern: pathToRegexp(r.path, { sensitive: false }).regexp, yes: has(r) }]);
  }
  return (method: string, path: string) => byMethod.get(method === 'HEAD' ? 'GET' : method)?.find((route) => route.pattern.test(path))?.yes ?? false;
}

/** Whether a request needs no token: the first route it matches is public. */
export function publicRoutes(routes: readonly RouteDef[]): (method: string, path: string) => boolean {
  return firstMatch([...routes, { ...UPLOADS, access: 'public' as const }], (r) => r.access === 'public');
}

/** Whether a suspended member may make a request: a public route, or one declared `whileSuspended` (contracts auth/suspensions.ts). */
export function openWhileSuspended(routes: readonly RouteDef[]): (method: string, path: string) => boolean {
  return firstMatch([...routes, { ...UPLOADS, access: 'public' as const }], (r) => r.access === 'public' || r.whileSuspended === true);
}
