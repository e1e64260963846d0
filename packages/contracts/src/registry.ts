// The one registry of services (docs/architecture.md "Contracts"): per service its route prefixes,
// its local port, its routes, events and queries. Everything else is derived from it: the gateway's
// routing and public routes, infra/local's ports and upstream URLs, each service's OpenAPI document,
// the deployables the chart/skaffold checks expect. A new service is one entry here plus its folder
// `src/<service>/`; a new route is routed once its contract lies under its service's prefixes
// (test/registry.unit.test.ts fails otherwise).
import { adminUserRoutes, authRoutes, blockRoutes, geoRoutes, userRoutes } from './auth/routes.ts';
import { authEvents } from './auth/events.ts';
import { authQueries } from './auth/queries.ts';
import { chainRoutes } from './chain/routes.ts';
import { chatEvents } from './chat/events.ts';
import { chatQueries } from './chat/queries.ts';
import { chatRoutes } from './chat/routes.ts';
import type { EventRegistry } from './events.ts';
import { listingEvents } from './listing/events.ts';
import { categoryQueries, inventoryQueries } from './listing/queries.ts';
import { categoryRoutes, listingRoutes, savedSearchRoutes, wishlistRoutes } from './listing/routes.ts';
import { moderationEvents } from './moderation/events.ts';
import { moderationQueries } from './moderation/queries.ts';
import { moderationRoutes } from './moderation/routes.ts';
import { notificationRoutes } from './notification/routes.ts';
import { examplePath, ownerMatcher, prefixesOverlap, type PrefixPattern } from './ownership.ts';
import { paymentEvents } from './payment/events.ts';
import { paymentQueries } from './payment/queries.ts';
import { paymentRoutes } from './payment/routes.ts';
import { SERVICE_NAMES, type QueryDef, type RouteDef, type ServiceName } from './routes.ts';
import { tradeEvents } from './trade/events.ts';
import { tradeQueries } from './trade/queries.ts';
import { tradeRoutes } from './trade/routes.ts';

export interface ServiceEntry {
  name: ServiceName;
  /** Its port under `npm start` (infra/local); in Kubernetes every service listens on 8080. */
  port: number;
  /**
   * The paths it owns (see PrefixPattern). The table's `/chathub` is written `/chathub/*`:
   * socket.io asks for `/chathub/?EIO=…` and SignalR for `/chathub/negotiate`.
   */
  prefixes: readonly PrefixPattern[];
  /** Its HTTP routes, in named groups (`authRoutes`, `userRoutes`…). */
  routes: Readonly<Record<string, Readonly<Record<string, RouteDef>>>>;
  events: EventRegistry;
  queries: Readonly<Record<string, Readonly<Record<string, QueryDef>>>>;
  /**
   * Its JetStream use beyond its own stream (named after it): each durable consumer it owns
   * (`<service>-<purpose>`) with the stream it reads, and the streams it follows with ephemeral
   * ordered consumers. Its NATS user's rights come from this (nats.ts); a consumer declared
   * nowhere here is refused by NATS.
   */
  nats: { durables: Readonly<Record<string, string>>; follows?: readonly string[] };
}

export const registry = {
  auth: {
    name: 'auth',
    port: 8101,
    prefixes: ['/api/auth/*', '/api/user/*', '/api/admin/users', '/api/admin/delete/*', '/api/geo/*', '/uploads/avatars/*'],
    routes: { auth: authRoutes, user: userRoutes, block: blockRoutes, adminUser: adminUserRoutes, geo: geoRoutes },
    events: authEvents,
    queries: { auth: authQueries },
    nats: { durables: { 'auth-listing-counts': 'listing', 'auth-membership': 'payment', 'auth-moderation': 'moderation', 'auth-trade-counts': 'trade' } },
  },
  listing: {
    name: 'listing',
    port: 8102,
    prefixes: ['/api/category', '/api/listing*', '/api/wishlist/*', '/api/search/*', '/uploads/listings/*'],
    routes: { category: categoryRoutes, listing: listingRoutes, wishlist: wishlistRoutes, savedSearch: savedSearchRoutes },
    events: listingEvents,
    queries: { category: categoryQueries, inventory: inventoryQueries },
    // Search and the category cache follow streams from a position of their own, on each replica.
    nats: { durables: { 'listing-members': 'auth', 'listing-moderation': 'moderation', 'listing-trades': 'trade' }, follows: ['auth', 'listing', 'trade'] },
  },
  trade: {
    name: 'trade',
    port: 8103,
    prefixes: ['/api/tradeoffer/*', '/api/review/*'],
    routes: { trade: tradeRoutes },
    events: tradeEvents,
    queries: { trade: tradeQueries },
    nats: { durables: { 'trade-listings': 'listing', 'trade-members': 'auth', 'trade-moderation': 'moderation', 'trade-outcomes': 'trade' } },
  },
  chat: {
    name: 'chat',
    port: 8104,
    prefixes: ['/api/chat/*', '/chathub/*'],
    routes: { chat: chatRoutes },
    events: chatEvents,
    queries: { chat: chatQueries },
    nats: { durables: { 'chat-members': 'auth', 'chat-offers': 'trade' } },
  },
  moderation: {
    name: 'moderation',
    port: 8105,
    prefixes: ['/api/report/*', '/api/ban/*', '/api/warning/*', '/api/admin/stats'],
    routes: { moderation: moderationRoutes },
    events: moderationEvents,
    queries: { moderation: moderationQueries },
    nats: { durables: { 'moderation-listings': 'listing', 'moderation-members': 'auth' } },
  },
  payment: {
    name: 'payment',
    port: 8106,
    prefixes: ['/api/payment/*'],
    routes: { payment: paymentRoutes },
    events: paymentEvents,
    queries: { payment: paymentQueries },
    nats: { durables: {} },
  },
  notification: {
    name: 'notification',
    port: 8107,
    prefixes: ['/api/notification*', '/notificationhub/*'],
    routes: { notification: notificationRoutes },
    // None of its own yet: the stream `notification` exists for what later features announce.
    events: {},
    queries: {},
    nats: {
      durables: {
        'notification-chat': 'chat',
        'notification-listing': 'listing',
        'notification-members': 'auth',
        'notification-moderation': 'moderation',
        'notification-payment': 'payment',
        'notification-trade': 'trade',
      },
    },
  },
  chain: {
    name: 'chain',
    port: 8108,
    prefixes: ['/api/chain/*'],
    routes: { chain: chainRoutes },
    // Nothing of its own to announce: proposals become trade offers (rpc.trade.chain.propose).
    events: {},
    queries: {},
    // One instance keeps the want graph: listings and wishes, members and blocks, offers that end.
    nats: { durables: { 'chain-listings': 'listing', 'chain-members': 'auth', 'chain-offers': 'trade' } },
  },
} satisfies Record<ServiceName, ServiceEntry>;

/** The entries in SERVICE_NAMES order. */
export const services: readonly ServiceEntry[] = SERVICE_NAMES.map((name) => registry[name]);

/** The gateway: no routes of its own, in front of every service. */
export const GATEWAY = { name: 'gateway', port: 8100 } as const;

/** The browser apps (the shell and its Module Federation remotes), each its own deployable. */
export const FRONTENDS = ['shell', 'mfe-listings', 'mfe-trades', 'mfe-admin'] as const;

/** Ports of `npm start` per deployable behind the edge: the gateway and every service. */
export const localPorts: Readonly<Record<ServiceName | typeof GATEWAY.name, number>> = {
  [GATEWAY.name]: GATEWAY.port,
  ...(Object.fromEntries(services.map((s) => [s.name, s.port])) as Record<ServiceName, number>),
};

/** The gateway's variable naming a service's address: `UPSTREAM_AUTH`… */
export const upstreamVariable = <S extends ServiceName>(service: S) => `UPSTREAM_${service.toUpperCase() as Uppercase<S>}` as const;

/** A service's address inside the cluster (its Kubernetes Service), the upstream variables' default. */
export const clusterUrl = (service: ServiceName) => `http://${service}:8080`;

/** Every HTTP route of one service. */
export const routesOf = (service: ServiceName): RouteDef[] => Object.values(registry[service].routes).flatMap((group) => Object.values(group));

/** Every request/reply query of one service. */
export const queriesOf = (service: ServiceName): QueryDef[] =>
  Object.values(registry[service].queries as ServiceEntry['queries']).flatMap((group) => Object.values(group));

/** Every HTTP route of the API; the gateway lets the public ones through without a token. */
export const apiRoutes: readonly RouteDef[] = SERVICE_NAMES.flatMap(routesOf);

type Union<T> = (T extends unknown ? (x: T) => void : never) extends (x: infer I) => void ? I : never;

/** Every NATS subject of every service with the zod schema of its payload. */
export const eventRegistry = Object.assign({}, ...services.map((s) => s.events)) as Union<(typeof registry)[ServiceName]['events']>;

/** The service owning a path (without query string), case-insensitively; undefined when nobody does. */
export const serviceFor: (path: string) => ServiceName | undefined = ownerMatcher(
  Object.fromEntries(services.map((s) => [s.name, s.prefixes])) as Record<ServiceName, readonly PrefixPattern[]>,
);

/**
 * What is wrong with a registry, as readable lines (empty: nothing): two services claiming a path
 * (overlapping prefixes, or the same method and path twice), a route its owner's prefixes do not
 * cover, an event or query subject outside its service's namespace, a port used twice.
 */
export function registryProblems(entries: readonly ServiceEntry[] = services): string[] {
  const problems: string[] = [];
  entries.forEach((a, i) => {
    for (const b of entries.slice(i + 1)) {
      for (const pa of a.prefixes) for (const pb of b.prefixes) if (prefixesOverlap(pa, pb)) problems.push(`${a.name} ${pa} and ${b.name} ${pb} claim the same paths`);
    }
  });
  const owner = ownerMatcher(Object.fromEntries(entries.map((e) => [e.name, e.prefixes])) as Record<string, readonly PrefixPattern[]>);
  const seen = new Map<string, string>();
  for (const entry of entries) {
    for (const [group, routes] of Object.entries(entry.routes)) {
      for (const [name, route] of Object.entries(routes)) {
        const label = `${entry.name} ${group}.${name} (${route.method.toUpperCase()} ${route.path})`;
        if (route.service !== entry.name) problems.push(`${label} names ${route.service} as its service`);
        const covering = owner(examplePath(route.path));
        if (covering !== route.service) problems.push(`${label}: its path belongs to ${covering ?? 'nobody'}, not ${route.service}`);
        // Express matches case-insensitively, whatever the parameters are called.
        const key = routeKey(route);
        const before = seen.get(key);
        if (before) problems.push(`${label} and ${before} are the same route`);
        else seen.set(key, label);
      }
    }
    // Routes are mounted in table order (the service kit's createApp): an earlier route that
    // matches a later one's path would take its requests (`/api/listing/:id` before `/my`).
    const mounted: { label: string; key: string; method: string; pattern: RegExp }[] = [];
    for (const [group, routes] of Object.entries(entry.routes)) {
      for (const [name, route] of Object.entries(routes)) {
        const label = `${entry.name} ${group}.${name} (${route.method.toUpperCase()} ${route.path})`;
        const key = routeKey(route);
        // The same route twice is reported as such above.
        const earlier = mounted.find((m) => m.method === route.method && m.key !== key && m.pattern.test(examplePath(route.path)));
        if (earlier) problems.push(`${label} is shadowed by ${earlier.label}, mounted before it`);
        mounted.push({ label, key, method: route.method, pattern: routePattern(route.path) });
      }
    }
    for (const subject of Object.keys(entry.events)) {
      if (!new RegExp(`^${entry.name}\\.[a-z0-9-]+\\.[a-z0-9-]+$`).test(subject)) problems.push(`${entry.name} event ${subject} is not ${entry.name}.<entity>.<verb>`);
    }
    for (const group of Object.values(entry.queries)) {
      for (const query of Object.values(group)) {
        if (!new RegExp(`^rpc\\.${entry.name}\\.[a-z0-9-]+\\.[a-z0-9-]+$`).test(query.subject)) problems.push(`${entry.name} query ${query.subject} is not rpc.${entry.name}.<entity>.<verb>`);
      }
    }
  }
  const ports = [GATEWAY, ...entries].map((e) => [e.name, e.port] as const);
  for (const [name, port] of ports) {
    const other = ports.find(([n, p]) => p === port && n !== name);
    if (other && name < other[0]) problems.push(`${name} and ${other[0]} both use port ${port}`);
  }
  return problems;
}

/** Method and path as express tells routes apart: case-insensitive, whatever the parameters are called. */
const routeKey = (route: RouteDef) => `${route.method} ${route.path.toLowerCase().replace(/:\w+/g, ':').replace(/\*\w+/g, '*').replace(/(.)\/+$/, '$1')}`;

/** The paths an express route matches: parameters take a segment, wildcards the rest. */
function routePattern(path: string): RegExp {
  const source = path
    .replace(/[.+?^$()[\]\\|]/g, '\\$&')
    .replace(/\{([^}]*)\}/g, '(?:$1)?')
    .replace(/\*\w+/g, '.+')
    .replace(/:\w+/g, '[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}
