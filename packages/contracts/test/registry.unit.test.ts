// The registry is the only table of services and routes; these checks keep it one that the
// gateway can route without ambiguity.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apiRoutes,
  FRONTENDS,
  GATEWAY,
  eventRegistry,
  examplePath,
  localPorts,
  pathWithoutIds,
  prefixesOverlap,
  queriesOf,
  registry,
  registryProblems,
  routesOf,
  SERVICE_NAMES,
  serviceFor,
  services,
  type RouteDef,
  type ServiceEntry,
} from '../src/index.ts';

const route = (service: RouteDef['service'], method: RouteDef['method'], path: string): RouteDef => ({
  service,
  method,
  path,
  summary: path,
  access: 'public',
  response: undefined as never,
});
const entry = (name: ServiceEntry['name'], port: number, prefixes: string[], routes: RouteDef[] = []): ServiceEntry => ({
  name,
  port,
  prefixes,
  routes: { main: Object.fromEntries(routes.map((r, i) => [`r${i}`, r])) },
  events: {},
  queries: {},
  nats: { durables: {} },
});

describe('the registry', () => {
  it('has no problems: disjoint prefixes, every route under its owner, namespaced subjects, own ports', () => {
    expect(registryProblems()).toEqual([]);
  });

  it('has one entry per service, in SERVICE_NAMES order, named as its key', () => {
    expect(Object.keys(registry).sort()).toEqual([...SERVICE_NAMES].sort());
    expect(services.map((s) => s.name)).toEqual([...SERVICE_NAMES]);
  });

  it('joins every route and every event subject', () => {
    expect(apiRoutes.length).toBe(SERVICE_NAMES.reduce((n, s) => n + routesOf(s).length, 0));
    expect(apiRoutes.length).toBeGreaterThan(15);
    expect(Object.keys(eventRegistry)).toEqual(expect.arrayContaining(['auth.user.registered', 'auth.user.deleted', 'listing.category.created']));
    expect(queriesOf('listing').map((q) => q.subject)).toEqual(['rpc.listing.category.list', 'rpc.listing.inventory.get']);
  });

  it('names every service and frontend folder of the repository, so none is started or deployed unchecked', () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const serviceFolders = readdirSync(join(root, 'services')).filter((d) => existsSync(join(root, 'services', d, 'src', 'main.ts')));
    expect(serviceFolders.filter((d) => d !== GATEWAY.name && !(SERVICE_NAMES as readonly string[]).includes(d))).toEqual([]);
    const frontendFolders = readdirSync(root).filter((d) => (d === 'shell' || d.startsWith('mfe-')) && existsSync(join(root, d, 'package.json')));
    expect(frontendFolders.sort()).toEqual([...FRONTENDS].sort());
  });

  it('keeps the ports of npm start', () => {
    expect(localPorts).toEqual({ gateway: 8100, auth: 8101, listing: 8102, trade: 8103, chat: 8104, moderation: 8105, payment: 8106, notification: 8107, chain: 8108 });
  });

  it('event payloads about a member carry its version', () => {
    const payload = { id: 'u1', firstName: 'A', lastName: 'B', profilePicture: '/p', roles: ['Gebruiker'], activated: true };
    expect(eventRegistry['auth.user.updated'].safeParse(payload).success).toBe(false);
    expect(eventRegistry['auth.user.updated'].safeParse({ ...payload, version: 3 }).success).toBe(true);
    expect(eventRegistry['auth.user.deleted'].safeParse({ id: 'u1' }).success).toBe(false);
  });
});

describe('registryProblems finds', () => {
  it('two services whose prefixes overlap', () => {
    const problems = registryProblems([entry('auth', 1, ['/api/user/*']), entry('listing', 2, ['/api/user*'])]);
    expect(problems).toEqual(['auth /api/user/* and listing /api/user* claim the same paths']);
  });

  it('two routes with the same method and path, whatever their parameters are called', () => {
    const problems = registryProblems([
      entry('auth', 1, ['/api/auth/*'], [route('auth', 'get', '/api/auth/x/:id'), route('auth', 'get', '/api/Auth/x/:userId/'), route('auth', 'post', '/api/auth/x/:id')]),
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/are the same route$/);
  });

  it('a route that an earlier route of its service would take, since routes are mounted in registry order', () => {
    const problems = registryProblems([
      entry('auth', 1, ['/api/auth/*'], [route('auth', 'get', '/api/auth/x/:id'), route('auth', 'get', '/api/auth/x/my'), route('auth', 'post', '/api/auth/x/my'), route('auth', 'get', '/api/auth/y/mine'), route('auth', 'get', '/api/auth/y/:id')]),
    ]);
    // Only the fixed path after the parameter is shadowed; another method, or the fixed path first, is fine.
    expect(problems).toEqual(['auth main.r1 (GET /api/auth/x/my) is shadowed by auth main.r0 (GET /api/auth/x/:id), mounted before it']);
  });

  it('a route its owner does not cover, or that lies under another service', () => {
    const problems = registryProblems([
      entry('auth', 1, ['/api/auth/*'], [route('auth', 'get', '/api/category'), route('auth', 'get', '/api/nowhere')]),
      entry('listing', 2, ['/api/category']),
    ]);
    expect(problems).toEqual([
      'auth main.r0 (GET /api/category): its path belongs to listing, not auth',
      'auth main.r1 (GET /api/nowhere): its path belongs to nobody, not auth',
    ]);
  });

  it('a route filed under a service it does not name', () => {
    expect(registryProblems([entry('auth', 1, ['/api/auth/*'], [route('listing', 'get', '/api/auth/x')])])).toEqual([
      'auth main.r0 (GET /api/auth/x) names listing as its service',
      'auth main.r0 (GET /api/auth/x): its path belongs to auth, not listing',
    ]);
  });

  it('subjects outside the service, and a port used twice', () => {
    const bad = { ...entry('chat', 8100, ['/api/chat/*']), events: { 'auth.user.updated': undefined as never }, queries: { q: { q: { subject: 'rpc.auth.user.get' } as never } } };
    expect(registryProblems([bad])).toEqual([
      'chat event auth.user.updated is not chat.<entity>.<verb>',
      'chat query rpc.auth.user.get is not rpc.chat.<entity>.<verb>',
      'chat and gateway both use port 8100',
    ]);
  });
});

describe('prefixesOverlap', () => {
  it.each([
    ['/api/listing*', '/api/listings/*', true],
    ['/api/admin/users', '/api/admin/*', true],
    ['/api/admin/users', '/api/admin/stats', false],
    ['/api/category', '/api/category/*', true],
    ['/api/category', '/api/categoryx', false],
    ['/api/chat/*', '/api/chathub/*', false],
    ['/api/chat*', '/api/chathub/*', true],
    ['/api/x/*', '/API/X/y', true],
  ])('%s and %s: %s', (a, b, overlap) => {
    expect(prefixesOverlap(a, b)).toBe(overlap);
    expect(prefixesOverlap(b, a)).toBe(overlap);
  });
});

describe('every declared route', () => {
  it.each(apiRoutes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s is routed to its owner', (_, r) => {
    expect(serviceFor(examplePath(r.path))).toBe(r.service);
  });
});

describe('pathWithoutIds', () => {
  it('names the kind of request: ids, uuids and payment tokens become :id, words stay', () => {
    expect(pathWithoutIds('/api/tradeoffer/confirm/6745a1b2c3d4e5f6a7b8c9d0')).toBe('/api/tradeoffer/confirm/:id');
    expect(pathWithoutIds('/api/listing/3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b/photos')).toBe('/api/listing/:id/photos');
    expect(pathWithoutIds('/api/payment/checkout/tr_qSVzWxtq1BVaK610')).toBe('/api/payment/checkout/:id');
    expect(pathWithoutIds('/api/user/42')).toBe('/api/user/:id');
    expect(pathWithoutIds('/api/payment/create-subscription')).toBe('/api/payment/create-subscription');
    expect(pathWithoutIds('/api/category')).toBe('/api/category');
  });
});
