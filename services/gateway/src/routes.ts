// The gateway's routing, derived from the contracts' registry (packages/contracts/src/registry.ts):
// no table of its own, so a route is routed the moment its contract exists.
import { serviceFor as ownerOf, SERVICE_NAMES, type RouteDef, type ServiceName } from '@ruilplein/contracts';
import { match } from 'path-to-regexp';

export const SERVICES = SERVICE_NAMES;
export type Service = ServiceName;

/** The service owning a path (without query string), case-insensitively; undefined when nobody does. */
export const serviceFor: (path: string) => Service | undefined = ownerOf;

/** The chat service's real-time hub: the only path that may be upgraded to a websocket. */
export const isHubPath = (path: string) => /^\/chathub(?:\/|$)/i.test(path);

/** Photos and avatars are public; docs/architecture.md "Shape". */
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
