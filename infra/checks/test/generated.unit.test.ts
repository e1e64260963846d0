// The pure parts of the generated checks: what an access level implies, inputs made from schemas.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { callerFieldCalls, expectedFor, meets } from '../src/matrix.ts';
import { ROLES } from '../src/platform.ts';
import { declaredRoutes, dummyInput, fillPath, routeKey, sampleFromJsonSchema } from '../src/routes.ts';
import { FIXTURES } from './fixtures.ts';

describe('what a declared access implies', () => {
  it('public lets everyone through; user refuses guests; admin refuses guests and members', () => {
    const row = (access: 'public' | 'user' | 'admin') => ROLES.map((role) => expectedFor({ access }, role));
    expect(row('public')).toEqual(['allowed', 'allowed', 'allowed', 'allowed', 'allowed']);
    expect(row('user')).toEqual([401, 'allowed', 'allowed', 'allowed', 'allowed']);
    expect(row('admin')).toEqual([401, 403, 403, 403, 'allowed']);
  });

  it('a caller field naming another member is a 403 for every signed-in caller, naming oneself is allowed', () => {
    const route = { service: 'chat', method: 'post', path: '/api/chat/send', summary: '', access: 'user', caller: { body: ['senderID'] }, response: z.object({}) } as const;
    const ids = { member: 'm', other: 'o', premium: 'p', admin: 'a' };
    expect(callerFieldCalls(route, { body: { text: 'hoi' } }, 'guest', ids)).toEqual([]);
    expect(callerFieldCalls(route, { body: { text: 'hoi' } }, 'other', ids)).toEqual([
      { name: 'body.senderID = own id', call: { body: { text: 'hoi', senderID: 'o' } }, expected: 'allowed' },
      { name: 'body.senderID = another member', call: { body: { text: 'hoi', senderID: 'm' } }, expected: 403 },
    ]);
  });

  it('"allowed" is any answer but a refusal, a throttle or a server error', () => {
    for (const status of [200, 201, 204, 400, 404, 409]) expect(meets({ status, text: '' }, 'allowed')).toBe(true);
    for (const status of [401, 403, 429, 500, 502, 503]) expect(meets({ status, text: '' }, 'allowed')).toBe(false);
    expect(meets({ status: 404, text: '' }, 403)).toBe(false);
  });
});

describe('inputs made from a route’s schemas', () => {
  it('fit the usual constraints', () => {
    const schema = z.object({
      id: z.string().regex(/^[0-9a-f]{24}$/),
      name: z.string().min(3),
      page: z.coerce.number().int().min(1).default(1),
      kind: z.enum(['ruil', 'gift']),
      tags: z.array(z.string()).min(1),
      note: z.string().optional(),
    });
    const value = sampleFromJsonSchema(z.toJSONSchema(schema, { io: 'input' }) as object);
    expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
    expect(value).not.toHaveProperty('note');
  });

  // A declared route that cannot be called at all would pass the matrix unseen.
  it('exist for every declared route without a fixture, with path parameters its schema accepts', () => {
    for (const route of declaredRoutes().filter((r) => !FIXTURES[routeKey(r)]?.samples)) {
      const input = dummyInput(route);
      expect(() => fillPath(route.path, input.params), routeKey(route)).not.toThrow();
      if (route.params) expect(route.params.safeParse(input.params).success, `${routeKey(route)} params ${JSON.stringify(input.params)}`).toBe(true);
      if (route.query) expect(route.query.safeParse(input.query).success, `${routeKey(route)} query ${JSON.stringify(input.query)}`).toBe(true);
    }
  });
});
