// Checks generated from the contracts' registry (packages/contracts/src/registry.ts): every
// declared route of every running service through the edge, as each kind of caller (the
// authorization matrix), then schemathesis against each service's OpenAPI document (the fuzzing). One platform for both; the matrix runs
// first, so the fuzzing's failed logins cannot throttle its sign-ins.
import type { RouteDef } from '@ruilplein/contracts';
import { DEMO_LISTINGS, DEMO_MEMBERS, demoListingId } from '@ruilplein/contracts/demo';
import { testStores } from '@ruilplein/local/testing';
import { connectMongo } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFieldCalls, callRoute, expectedFor, meets, type Call, type Expectation } from '../src/matrix.ts';
import { ACCOUNT_EMAILS, ROLES, startChecksPlatform, type ChecksPlatform, type Role, type Session, type SignedInRole } from '../src/platform.ts';
import { declaredRoutes, dummyInput, routeKey, serviceIsBuilt, toOpenApiPath } from '../src/routes.ts';
import { fuzzService } from '../src/fuzz.ts';
import { FIXTURES, type Sample } from './fixtures.ts';

const routes = [...declaredRoutes()].sort((a, b) => Number(!!FIXTURES[routeKey(a)]?.endsSession) - Number(!!FIXTURES[routeKey(b)]?.endsSession));
const skipped = routes.filter((r) => !serviceIsBuilt(r.service));
const services = [...new Set(routes.map((r) => r.service))].filter(serviceIsBuilt);

let platform: ChecksPlatform;
const sessions = {} as Record<SignedInRole, Session>;
/** `METHOD path` of every route each running service serves (from its own /openapi.json). */
const served = new Map<string, Set<string>>();
const stats = { matrixCalls: 0, fuzzCalls: 0, routes: 0, started: 0 };
/** Per route and caller the statuses seen, for the summary. */
const seen = new Map<string, Record<string, number[]>>();
/** Per service the requests of each fuzzing pass, for the summary. */
const fuzzed: string[] = [];

beforeAll(async () => {
  stats.started = performance.now();
  platform = await startChecksPlatform();
  for (const role of ROLES) if (role !== 'guest') sessions[role] = await platform.signIn(role);
  await demoListingsSeeded();
  for (const service of services) {
    const url = platform.services.get(service);
    if (!url) throw new Error(`services/${service} exists but the platform did not start it (logs: ${platform.logDir})`);
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    served.set(service, new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))));
  }
}, 240_000);

/**
 * The fixtures use the listings local mode seeds for the signed-in demo accounts; the seed draws
 * their pictures after the platform is up, so wait until the admin finds every one of them.
 */
async function demoListingsSeeded() {
  const ids = (Object.entries(sessions) as [SignedInRole, Session][]).flatMap(([role, session]) => {
    const owner = Object.entries(DEMO_MEMBERS).find(([, m]) => m.email === ACCOUNT_EMAILS[role])?.[0];
    return DEMO_LISTINGS.flatMap((l, index) => (l.owner === owner ? [demoListingId(session.id, index)] : []));
  });
  const deadline = performance.now() + 90_000;
  for (const id of ids) {
    while ((await fetch(`${platform.url}/api/listing/${id}`, { headers: { authorization: `Bearer ${sessions.admin.token}` } })).status !== 200) {
      if (performance.now() > deadline) throw new Error(`demo listing ${id} was not seeded within 90 s (logs: ${platform.logDir})`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

afterAll(async () => {
  const seconds = ((performance.now() - stats.started) / 1000).toFixed(1);
  const table = [...seen].map(([key, byRole]) => `  ${key}: ${Object.entries(byRole).map(([role, statuses]) => `${role} ${[...new Set(statuses)].join('/')}`).join(', ')}`);
  console.log(
    [
      `generated checks in ${seconds} s: ${stats.routes} routes of ${services.join(', ')} in the authorization matrix (${stats.matrixCalls} calls), ${stats.fuzzCalls} schemathesis requests`,
      ...table,
      ...fuzzed,
      ...(skipped.length ? [`skipped (their service is not built yet): ${skipped.map(routeKey).join(', ')}`] : []),
    ].join('\n'),
  );
  await platform?.stop();
});

it('every fixture belongs to a declared route', () => {
  const declared = new Set(routes.map(routeKey));
  expect(Object.keys(FIXTURES).filter((key) => !declared.has(key))).toEqual([]);
});

describe('authorization matrix', () => {
  const ids = () => Object.fromEntries(Object.entries(sessions).map(([role, s]) => [role, s.id])) as Record<SignedInRole, string>;

  function samplesFor(route: RouteDef, role: Role): Sample[] {
    const fixture = FIXTURES[routeKey(route)];
    if (fixture?.samples) return fixture.samples({ role, ids: ids() });
    return [{ name: 'generated', ...dummyInput(route) }];
  }

  for (const route of routes) {
    const key = routeKey(route);
    it.skipIf(!serviceIsBuilt(route.service))(`${key} (${route.access})`, async () => {
      expect(served.get(route.service)?.has(`${route.method} ${toOpenApiPath(route.path)}`), `${key} is declared but ${route.service} does not serve it`).toBe(true);
      stats.routes++;
      const failures: string[] = [];
      for (const role of ROLES) {
        const session = role === 'guest' ? undefined : sessions[role];
        const calls: Array<{ name: string; call: Call; expected: Expectation }> = [];
        for (const sample of samplesFor(route, role)) {
          calls.push({ name: sample.name, call: sample, expected: sample.expect?.[role] ?? expectedFor(route, role) });
          calls.push(...callerFieldCalls(route, sample, role, ids()));
        }
        for (const { name, call, expected } of calls) {
          const answer = await callRoute(platform.url, route, call, session);
          stats.matrixCalls++;
          ((seen.get(key) ?? seen.set(key, {}).get(key)!)[role] ??= []).push(answer.status);
          if (!meets(answer, expected)) {
            const what = expected === 'allowed' ? 'to be let through' : `${expected}`;
            failures.push(`${role} (${name}): expected ${what}, got ${answer.status} ${answer.text}`);
          }
        }
        if (FIXTURES[key]?.endsSession && session) sessions[role as SignedInRole] = await platform.signIn(role as SignedInRole);
      }
      expect(failures, `${key}, access ${route.access}`).toEqual([]);
    });
  }

  // The matrix must be able to fail: the same calls against access levels the routes do not have.
  it('reports an unexpected allow and an unexpected refusal', async () => {
    const category = routes.find((r) => routeKey(r) === 'GET /api/category');
    const my = routes.find((r) => routeKey(r) === 'GET /api/user/my');
    if (!category || !my) throw new Error('GET /api/category or GET /api/user/my is no longer declared: pick two other routes');
    const asAdminOnly = { ...category, access: 'admin' as const };
    expect(meets(await callRoute(platform.url, asAdminOnly, {}, sessions.member), expectedFor(asAdminOnly, 'member'))).toBe(false);
    const asPublic = { ...my, access: 'public' as const };
    expect(meets(await callRoute(platform.url, asPublic, {}, undefined), expectedFor(asPublic, 'guest'))).toBe(false);
  });
});

// A suspended member (contracts auth/suspensions.ts) gets 403 with the suspension from every route
// that needs a login, except those declared `whileSuspended`; the same list the gateway and the kit read.
describe('a suspended member', () => {
  it('is refused with the suspension everywhere but the public and whileSuspended routes', async () => {
    const { mongoUrl } = testStores();
    const auth = await connectMongo(mongoUrl, 'auth');
    const users = auth.collection('users');
    const email = ACCOUNT_EMAILS.fuzzer;
    const failures: string[] = [];
    try {
      await users.updateOne({ email }, { $set: { suspension: { reason: 'ban', endsAt: new Date(Date.now() + 86_400_000) } } });
      const suspended = await platform.signIn('fuzzer');
      for (const route of routes.filter((r) => serviceIsBuilt(r.service) && !FIXTURES[routeKey(r)]?.endsSession)) {
        const answer = await callRoute(platform.url, route, dummyInput(route), suspended);
        stats.matrixCalls++;
        const open = route.access === 'public' || route.whileSuspended === true;
        if (open ? !meets(answer, 'allowed') : answer.status !== 403 || !/"blocked":true/.test(answer.text)) {
          failures.push(`${routeKey(route)}: ${open ? 'expected to be let through' : 'expected 403 with the suspension'}, got ${answer.status} ${answer.text}`);
        }
      }
    } finally {
      await users.updateOne({ email }, { $unset: { suspension: '' } });
      await auth.close();
    }
    expect(failures).toEqual([]);
  });
});

describe('schema fuzzing (schemathesis)', () => {
  for (const service of services) {
    it(`${service}: no 5xx, every answer as its OpenAPI document declares`, async () => {
      const member = await platform.signIn('fuzzer');
      const ownRoutes = routes.filter((r) => r.service === service);
      const result = await fuzzService({
        service,
        schemaUrl: `${platform.services.get(service)}/openapi.json`,
        baseUrl: platform.url,
        token: member.token,
        lastOperations: ownRoutes.filter((r) => FIXTURES[routeKey(r)]?.endsSession),
        admin: { token: sessions.admin.token, operations: ownRoutes.filter((r) => r.access === 'admin' && !FIXTURES[routeKey(r)]?.destructive) },
      });
      stats.fuzzCalls += result.calls;
      fuzzed.push(`  schemathesis ${service}: ${result.passes.join(', ')}`);
      expect(result.ok, result.output).toBe(true);
    }, 150_000);
  }
});
