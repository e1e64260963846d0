import { gzipSync } from 'node:zlib';
import { defineRoute } from '@ruilplein/contracts';
import { mongo } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { badRequest, createApp } from '../src/index.ts';
import { body as json, createTestIssuer, listen, silentLogger, type TestIssuer } from '../src/testing.ts';

const routes = {
  echo: defineRoute({
    service: 'listing',
    method: 'post',
    path: '/things/:id',
    summary: 'echo',
    access: 'public',
    params: z.object({ id: z.string().regex(/^\d+$/) }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(10).default(5) }),
    body: z.object({ name: z.string().min(1).max(5) }),
    response: z.object({ id: z.string(), limit: z.number(), name: z.string() }),
  }),
  mine: defineRoute({ service: 'listing', method: 'get', path: '/mine', summary: 'mine', access: 'user', response: z.object({ userId: z.string() }) }),
  admin: defineRoute({ service: 'listing', method: 'get', path: '/admin', summary: 'admin', access: 'admin', response: z.object({ ok: z.boolean() }) }),
  boom: defineRoute({ service: 'listing', method: 'get', path: '/boom', summary: 'boom', access: 'public', response: z.object({}) }),
  refused: defineRoute({ service: 'listing', method: 'get', path: '/refused', summary: 'refused', access: 'public', response: z.object({}) }),
  whoami: defineRoute({ service: 'listing', method: 'get', path: '/whoami', summary: 'optional login', access: 'public', response: z.object({ userId: z.string().nullable() }) }),
  personal: defineRoute({ service: 'listing', method: 'get', path: '/personal', summary: 'personal', access: 'public', personal: true, response: z.object({}) }),
  report: defineRoute({
    service: 'listing',
    method: 'post',
    path: '/report',
    summary: 'caller fields',
    access: 'user',
    caller: { body: ['reporterID'], query: ['userId'] },
    query: z.object({ userId: z.string().optional() }),
    body: z.object({ reporterID: z.string().optional(), reason: z.string() }),
    response: z.object({ ok: z.boolean() }),
  }),
  offer: defineRoute({
    service: 'listing',
    method: 'post',
    path: '/offer',
    summary: 'caller field on a public route',
    access: 'public',
    caller: { body: ['senderID'] },
    body: z.object({ senderID: z.string().optional() }),
    response: z.object({ ok: z.boolean() }),
  }),
  storeDown: defineRoute({ service: 'listing', method: 'get', path: '/store-down', summary: 'a store out of reach', access: 'public', response: z.object({ ok: z.boolean() }) }),
};

let issuer: TestIssuer;
let server: Awaited<ReturnType<typeof listen>>;
/** A driver pointed at a port nothing listens on: its real error when the store is down. */
const unreachable = new mongo.MongoClient('mongodb://127.0.0.1:9/', { directConnection: true, serverSelectionTimeoutMS: 200 });

beforeAll(async () => {
  issuer = await createTestIssuer();
  const app = createApp({
    service: 'test',
    logger: silentLogger(),
    verifyToken: issuer.verifyToken,
    readiness: { store: async () => undefined, broken: () => Promise.reject(new Error('down')) },
    routes: { test: routes },
    handlers: {
      test: {
        echo: ({ params, query, body }) => ({ id: params.id, limit: query.limit, name: body.name }),
        mine: ({ principal }) => ({ userId: principal.userId }),
        admin: () => ({ ok: true }),
        boom: () => {
          throw new Error('secret internal detail at /srv/db');
        },
        refused: () => {
          throw badRequest('Dat mag niet.');
        },
        whoami: ({ principal, res }) => {
          res.setHeader('cache-control', 'public, max-age=60');
          return { userId: principal?.userId ?? null };
        },
        personal: () => ({}),
        report: () => ({ ok: true }),
        offer: () => ({ ok: true }),
        storeDown: async () => ({ ok: !!(await unreachable.db('x').collection('y').findOne({})) }),
      },
    },
  });
  server = await listen(app);
});
afterAll(async () => {
  await unreachable.close();
  await server.close();
  await issuer.close();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const get = (path: string, token?: string) => fetch(server.url + path, token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe('createApp', () => {
  it('validates params, query and body and answers with the parsed input', async () => {
    const res = await post('/things/42?limit=3', JSON.stringify({ name: 'fiets' }));
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ id: '42', limit: 3, name: 'fiets' });
  });

  it('answers 400 with a Dutch message and every field error', async () => {
    const res = await post('/things/abc?limit=99', JSON.stringify({ name: 'veel te lang' }));
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.message).toBe('De invoer is ongeldig.');
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.name', 'params.id', 'query.limit']);
    expect(body.errors[0].message).toMatch(/[a-z]/);
  });

  it('answers 400 to malformed JSON and 413 to a body over the limit, never 500', async () => {
    const bad = await post('/things/1', '{"name": ');
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ message: 'De invoer is geen geldige JSON.' });
    const big = await post('/things/1', JSON.stringify({ name: 'x'.repeat(200_000) }));
    expect(big.status).toBe(413);
    expect((await json(big)).message).toBe('Het verzoek is te groot.');
  });

  it('hides internal errors and stacks, keeps member-facing ones', async () => {
    const res = await get('/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/secret|stack|\/srv/);
    expect(JSON.parse(text).message).toMatch(/Er ging iets mis/);
    // The store out of reach is no fault of the request: a 503 the member may retry, not a 500.
    const down = await get('/store-down');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(await json(down)).toEqual({ message: 'De dienst is tijdelijk niet bereikbaar. Probeer het later opnieuw.' });
    const refused = await get('/refused');
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ message: 'Dat mag niet.' });
  });

  it('answers JSON 404, sets security headers and request ids, and has no x-powered-by', async () => {
    const res = await fetch(`${server.url}/nergens`, { headers: { 'x-request-id': 'abc-123' } });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Deze pagina of bron bestaat niet.' });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const generated = await get('/nergens');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('requires a valid token for user routes and an admin role for admin routes', async () => {
    expect((await get('/mine')).status).toBe(401);
    expect((await get('/mine', 'not-a-jwt')).status).toBe(401);
    expect((await get('/mine', await issuer.signWithForeignKey({ sub: 'u1' }))).status).toBe(401);
    expect((await get('/mine', issuer.unsigned({ sub: 'u1' }))).status).toBe(401);
    expect((await get('/mine', await issuer.sign({ sub: 'u1' }, { expiresIn: '-1m' }))).status).toBe(401);
    const ok = await get('/mine', await issuer.sign({ sub: 'u1' }));
    expect(await json(ok)).toEqual({ userId: 'u1' });
    expect((await get('/admin', await issuer.sign({ sub: 'u1', roles: ['Gebruiker', 'Premium'] }))).status).toBe(403);
    expect((await get('/admin', await issuer.sign({ sub: 'm1', roles: ['Moderator'] }))).status).toBe(200);
    expect((await get('/admin', await issuer.sign({ sub: 'b1', roles: ['Beheerder'] }))).status).toBe(200);
  });

  it('reports liveness, readiness per dependency, and an OpenAPI 3.1 document of its routes', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect((await json(ready)).checks).toEqual({ store: 'ok', broken: 'unreachable' });
    const doc = await json(await get('/openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/things/{id}'].post;
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:limit']);
    expect(op.requestBody.content['application/json'].schema.properties.name.maxLength).toBe(5);
    expect(doc.paths['/admin'].get.security).toEqual([{ bearer: [] }]);
  });
});

describe('what a route declares', () => {
  const OBJECT_ID = '65a1b2c3d4e5f60718293a4b';
  const postAs = (path: string, payload: unknown, token?: string) =>
    fetch(server.url + path, { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) } });

  it('optional login: a public route sees a valid caller and treats a bad or expired token as a guest', async () => {
    expect(await json(await get('/whoami'))).toEqual({ userId: null });
    expect(await json(await get('/whoami', await issuer.sign({ sub: 'u7' })))).toEqual({ userId: 'u7' });
    for (const token of ['not-a-jwt', await issuer.sign({ sub: 'u7' }, { expiresIn: '-1m' }), await issuer.signWithForeignKey({ sub: 'u7' }), issuer.unsigned({ sub: 'u7' })]) {
      const res = await get('/whoami', token);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ userId: null });
    }
  });

  it('no-store on every answer of a non-public or personal route, refusals included; public routes keep theirs', async () => {
    expect((await get('/mine', await issuer.sign({ sub: 'u1' }))).headers.get('cache-control')).toBe('no-store');
    expect((await get('/mine')).headers.get('cache-control')).toBe('no-store');
    expect((await get('/admin', await issuer.sign({ sub: 'u1' }))).headers.get('cache-control')).toBe('no-store');
    expect((await get('/personal')).headers.get('cache-control')).toBe('no-store');
    expect((await get('/whoami')).headers.get('cache-control')).toBe('public, max-age=60');
    expect((await post('/things/1', JSON.stringify({ name: 'a' }))).headers.get('cache-control')).toBeNull();
  });

  it('caller fields: absent or the caller (any case) pass, anyone else is a 403 with a Dutch message', async () => {
    const token = await issuer.sign({ sub: OBJECT_ID });
    expect((await postAs('/report', { reason: 'x' }, token)).status).toBe(200);
    expect((await postAs('/report', { reason: 'x', reporterID: OBJECT_ID.toUpperCase() }, token)).status).toBe(200);
    expect((await postAs(`/report?userId=${OBJECT_ID}`, { reason: 'x', reporterID: OBJECT_ID }, token)).status).toBe(200);
    const other = await postAs('/report', { reason: 'x', reporterID: '65a1b2c3d4e5f60718293a4c' }, token);
    expect(other.status).toBe(403);
    expect(await json(other)).toEqual({ message: 'Je kunt dit alleen voor jezelf doen.' });
    expect((await postAs('/report?userId=iemand-anders', { reason: 'x' }, token)).status).toBe(403);
    // Input errors come first; without a token the route's own access answers.
    expect((await postAs('/report', { reporterID: 'iemand-anders' }, token)).status).toBe(400);
    expect((await postAs('/report', { reason: 'x', reporterID: OBJECT_ID })).status).toBe(401);
    // On a public route a guest may not name anyone, a member only themselves.
    expect((await postAs('/offer', {})).status).toBe(200);
    expect((await postAs('/offer', { senderID: OBJECT_ID })).status).toBe(401);
    expect((await postAs('/offer', { senderID: OBJECT_ID }, token)).status).toBe(200);
    expect((await postAs('/offer', { senderID: 'u2' }, token)).status).toBe(403);
  });

  it('a body that lies about its Content-Encoding is a 400 with a Dutch message, a true one is read', async () => {
    const payload = JSON.stringify({ name: 'fiets' });
    const send = (data: Buffer | string, encoding: string, type = 'application/json') =>
      fetch(`${server.url}/things/1`, { method: 'POST', body: data, headers: { 'content-type': type, 'content-encoding': encoding } });
    expect((await send(gzipSync(payload), 'gzip')).status).toBe(200);
    for (const [data, encoding, type] of [
      [payload, 'gzip'],
      [payload, 'deflate'],
      [payload, 'br'],
      [payload, 'zstd-ish'],
      [gzipSync(payload).subarray(0, 12), 'gzip'],
      ['platte tekst', 'gzip', 'text/plain'],
    ] as const) {
      const res = await send(data, encoding, type);
      expect(res.status, `${encoding} ${type ?? ''}`).toBe(400);
      expect(await json(res)).toEqual({ message: 'De invoer is niet leesbaar: de Content-Encoding klopt niet of wordt niet ondersteund.' });
    }
  });

  it('a route declaring a rate limit in an app without redis stops the start', () => {
    const limited = defineRoute({ service: 'listing', method: 'get', path: '/limited', summary: 'l', access: 'public', rateLimit: { per: 'client', points: 1, windowSeconds: 1 }, response: z.object({}) });
    expect(() =>
      createApp({ service: 'test', logger: silentLogger(), verifyToken: issuer.verifyToken, routes: { t: { limited } }, handlers: { t: { limited: () => ({}) } } }),
    ).toThrow(/GET \/limited declares a rate limit, but createApp got no redis/);
  });

  it('a declared route without a handler, or a handler without a route, stops the start', () => {
    const base = { service: 'test', logger: silentLogger(), verifyToken: issuer.verifyToken } as const;
    const { mine, admin } = routes;
    // Casts: the types refuse both apps already; the start must refuse them too (a table built at run time).
    expect(() => createApp({ ...base, routes: { t: { mine, admin } }, handlers: { t: { mine: () => ({ userId: 'x' }) } } as never })).toThrow(
      'test: route t.admin (GET /admin) has no handler',
    );
    expect(() => createApp({ ...base, routes: { t: { mine } }, handlers: { t: { mine: () => ({ userId: 'x' }), extra: () => ({}) } } as never })).toThrow('test: handler t.extra has no route');
  });

  it('mounts routes in the order of their table, whatever order the handlers come in', async () => {
    const byId = defineRoute({ service: 'listing', method: 'get', path: '/items/:id', summary: 'one', access: 'public', response: z.object({ which: z.string() }) });
    const fixed = defineRoute({ service: 'listing', method: 'get', path: '/items/special', summary: 'fixed', access: 'public', response: z.object({ which: z.string() }) });
    const served = await listen(
      createApp({
        service: 'test',
        logger: silentLogger(),
        verifyToken: issuer.verifyToken,
        routes: { t: { fixed, byId } },
        handlers: { t: { byId: () => ({ which: 'byId' }), fixed: () => ({ which: 'fixed' }) } },
      }),
    );
    try {
      expect(await json(await fetch(`${served.url}/items/special`))).toEqual({ which: 'fixed' });
      expect(await json(await fetch(`${served.url}/items/7`))).toEqual({ which: 'byId' });
    } finally {
      await served.close();
    }
  });
});
