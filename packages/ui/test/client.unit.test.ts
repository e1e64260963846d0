import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteRef } from '@ruilplein/contracts/browser';
import { ApiError } from '../src/api.ts';
import { onSuspended } from '../src/suspended.ts';
import { renewSession, request, urlOf, verifyStoredSession } from '../src/client.ts';
import { sessionToken, setSessionToken, tokenExpiry } from '../src/token.ts';

/** What the fake server answers: the URL it was asked and the token it got. */
interface Echo {
  url: string;
  token: string | null;
}

// Hand-made refs, shaped as @ruilplein/contracts/browser declares them.
const getListing: RouteRef<{ id: string }, { tags?: string[]; page?: number }, unknown, Echo> = {
  service: 'listing',
  method: 'get',
  path: '/api/listing/:id',
  access: 'user',
};
const categories: RouteRef<unknown, unknown, unknown, Echo> = { service: 'listing', method: 'get', path: '/api/category', access: 'public' };
const login: RouteRef<unknown, unknown, { email: string; password: string }, { token: string }> = {
  service: 'auth',
  method: 'post',
  path: '/api/auth/login',
  access: 'public',
};
const update: RouteRef<undefined, undefined, { firstName: string; city?: string; latitude?: string }, { message: string }> = { service: 'auth', method: 'put', path: '/api/user/update', access: 'user', form: true };

// Compile-time checks (tsc runs over this file): a declared part is required, an undeclared one refused.
export const typeChecks = [
  // @ts-expect-error params are required
  () => request(getListing),
  // @ts-expect-error a body the route does not take
  () => request(categories, { body: { x: 1 } }),
  // @ts-expect-error the body must have the declared shape
  () => request(login, { body: { email: 'a' } }),
  // @ts-expect-error a parameter the path does not have
  () => request(getListing, { params: { slug: 'x' } }),
  async () => (await request(getListing, { params: { id: 'x' } })).url satisfies string,
  () => request(categories),
  () => request(getListing, { params: { id: 'x' }, query: { page: 2 } }),
];

// The browser's storage, as the session keeps it.
const storage = new Map<string, string>();

interface Call {
  url: string;
  method: string;
  authorization: string | null;
  contentType: string | null;
  body: unknown;
}
let calls: Call[];
/** What the fake server answers: by call, given the URL and the bearer token sent. */
let answer: (url: string, token: string | null) => Response | Promise<Response>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const unauthorized = () => new Response('', { status: 401 });

beforeEach(() => {
  calls = [];
  storage.clear();
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
    removeItem: (key: string) => storage.delete(key),
  });
  setSessionToken(null);
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    const authorization = headers.get('authorization');
    calls.push({ url, method: init.method ?? 'GET', authorization, contentType: headers.get('content-type'), body: init.body });
    return answer(url, authorization?.replace(/^Bearer /, '') ?? null);
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A server whose valid access token is `valid`, and whose refresh hands out `renewed` (or refuses with `refresh`). */
function server({ valid, renewed, refresh }: { valid: string; renewed?: string; refresh?: () => Response | Promise<Response> }) {
  answer = (url, token) => {
    if (url === '/api/auth/refresh') return refresh ? refresh() : json(200, { token: renewed });
    if (token !== null && token !== valid && token !== renewed) return unauthorized();
    return json(200, { url, token });
  };
}

describe('urlOf', () => {
  it('fills path parameters, encoded', () => {
    expect(urlOf({ path: '/api/user/public/stats/:id' }, { id: 'a b/c?' })).toBe('/api/user/public/stats/a%20b%2Fc%3F');
    expect(urlOf({ path: '/api/:kind/:id' }, { kind: 'listing', id: 7 })).toBe('/api/listing/7');
  });

  it('repeats array query values and leaves out absent ones', () => {
    expect(urlOf({ path: '/api/listing' }, undefined, { tag: ['fiets', 'boek'], q: 'rood & blauw', page: 2, none: undefined, nil: null })).toBe(
      '/api/listing?tag=fiets&tag=boek&q=rood+%26+blauw&page=2',
    );
    expect(urlOf({ path: '/api/listing' }, undefined, {})).toBe('/api/listing');
  });

  it('refuses a missing parameter rather than calling a wrong URL', () => {
    expect(() => urlOf({ path: '/api/listing/:id' }, {})).toThrow(/id/);
    expect(() => urlOf({ path: '/api/listing/:id' }, { id: '' })).toThrow(/id/);
  });
});

describe('request', () => {
  it('calls the route with its method, a JSON body and the session token', async () => {
    server({ valid: 'a1' });
    setSessionToken('a1');
    await request(login, { body: { email: 'anna@example.nl', password: 'Geheim1' } });
    expect(calls).toEqual([
      { url: '/api/auth/login', method: 'POST', authorization: 'Bearer a1', contentType: 'application/json', body: '{"email":"anna@example.nl","password":"Geheim1"}' },
    ]);
  });

  it('fills params and query, and sends no token without a session', async () => {
    server({ valid: 'a1' });
    await expect(request(getListing, { params: { id: 'x/1' }, query: { tags: ['a', 'b'] } })).resolves.toEqual({ url: '/api/listing/x%2F1?tags=a&tags=b', token: null });
    expect(calls[0]?.authorization).toBeNull();
  });

  it('sends a form route as multipart: text fields and files, letting the browser set the boundary', async () => {
    server({ valid: 'a1' });
    setSessionToken('a1');
    const picture = new Blob(['png'], { type: 'image/png' });
    await request(update, { body: { firstName: 'Anna', city: '', latitude: undefined }, files: { profilePicture: picture } });
    expect(calls[0]).toMatchObject({ url: '/api/user/update', method: 'PUT', contentType: null });
    const form = calls[0]?.body as FormData;
    expect([...form.keys()]).toEqual(['firstName', 'city', 'profilePicture']);
    expect(form.get('firstName')).toBe('Anna');
    expect(form.get('city')).toBe(''); // an empty city clears it: sent, not left out
    expect(await (form.get('profilePicture') as Blob).text()).toBe('png');
  });

  it('sends a FormData body as is', async () => {
    server({ valid: 'a1' });
    const form = new FormData();
    form.append('firstName', 'Anna');
    await request(update, { body: form as never });
    expect(calls[0]?.body).toBe(form);
  });

  it('sends no token when told not to', async () => {
    server({ valid: 'a1' });
    setSessionToken('a1');
    await request(login, { body: { email: 'a@b.nl', password: 'x' }, token: null });
    expect(calls[0]?.authorization).toBeNull();
  });

  it('keeps the Dutch errors of the API', async () => {
    answer = () => new Response('', { status: 404 });
    const err = await request(categories).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, message: 'Niet gevonden.' });
  });
});

describe('silent token renewal', () => {
  it('renews an expired token once and retries the call with the new one', async () => {
    server({ valid: 'new', renewed: 'new' });
    setSessionToken('old');
    await expect(request(getListing, { params: { id: '1' } })).resolves.toEqual({ url: '/api/listing/1', token: 'new' });
    expect(calls.map((c) => [c.url, c.method, c.authorization])).toEqual([
      ['/api/listing/1', 'GET', 'Bearer old'],
      ['/api/auth/refresh', 'POST', null],
      ['/api/listing/1', 'GET', 'Bearer new'],
    ]);
    expect(sessionToken()).toBe('new');
    expect(storage.get('ruilplein.token')).toBe('new');
  });

  it('shares one renewal between calls refused at the same time', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server({ valid: 'new', renewed: 'new', refresh: () => held.then(() => json(200, { token: 'new' })) });
    setSessionToken('old');
    const all = Promise.all([1, 2, 3].map((id) => request(getListing, { params: { id: String(id) } })));
    await vi.waitFor(() => expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1));
    release();
    expect((await all).map((r) => r.token)).toEqual(['new', 'new', 'new']);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('retries a late refusal with the token renewed meanwhile, without renewing again', async () => {
    setSessionToken('old');
    let late!: (r: Response) => void;
    answer = (url, token) => (token === 'old' && url.endsWith('/slow') ? new Promise((resolve) => (late = resolve)) : url === '/api/auth/refresh' ? json(200, { token: 'new' }) : token === 'new' ? json(200, { url, token }) : unauthorized());
    const slow = request(getListing, { params: { id: 'slow' } });
    await vi.waitFor(() => expect(late).toBeTypeOf('function'));
    await request(getListing, { params: { id: 'fast' } });
    late(unauthorized());
    await expect(slow).resolves.toEqual({ url: '/api/listing/slow', token: 'new' });
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('ends the session when renewal is refused, and a public route answers as to a guest', async () => {
    server({ valid: 'none', refresh: unauthorized });
    setSessionToken('old');
    const err = await request(getListing, { params: { id: '1' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, message: 'Niet geautoriseerd. Log opnieuw in.' });
    expect(sessionToken()).toBeNull();
    expect(storage.has('ruilplein.token')).toBe(false);

    setSessionToken('old');
    await expect(request(categories)).resolves.toEqual({ url: '/api/category', token: null });
    expect(sessionToken()).toBeNull();
  });

  it.each<[string, () => Response | Promise<Response>]>([
    ['cannot be reached', () => Promise.reject(new TypeError('fetch failed'))],
    ['throttles renewals', () => json(429, { message: 'Te veel verzoeken. Probeer het later opnieuw.' })],
    ['fails', () => new Response('', { status: 503 })],
  ])('keeps the session when the server %s', async (_, refresh) => {
    server({ valid: 'none', refresh });
    setSessionToken('old');
    await expect(request(getListing, { params: { id: '1' } })).rejects.toMatchObject({ status: 401 });
    expect(sessionToken()).toBe('old');
  });

  it('retries only once: a renewed token refused again is an error, not a loop', async () => {
    answer = (url) => (url === '/api/auth/refresh' ? json(200, { token: 'new' }) : unauthorized());
    setSessionToken('old');
    await expect(request(getListing, { params: { id: '1' } })).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/api/listing/1', '/api/auth/refresh', '/api/listing/1']);
  });

  it('does not renew for a 401 to a call without a token (a wrong password)', async () => {
    answer = () => json(401, { message: 'Onjuist e-mailadres of wachtwoord.' });
    setSessionToken('a1');
    await expect(request(login, { body: { email: 'a@b.nl', password: 'x' }, token: null })).rejects.toMatchObject({ status: 401, message: 'Onjuist e-mailadres of wachtwoord.' });
    expect(calls).toHaveLength(1);
    expect(sessionToken()).toBe('a1');
  });

  it('does not bring back a session that was signed out during renewal', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server({ valid: 'new', refresh: () => held.then(() => json(200, { token: 'new' })) });
    setSessionToken('old');
    const renewal = renewSession();
    setSessionToken(null);
    release();
    await expect(renewal).resolves.toBeNull();
    expect(sessionToken()).toBeNull();
  });
});

const jwt = (payload: object) => `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2ln`;

describe('a suspension', () => {
  const suspension = { message: 'Je account is geblokkeerd.', blocked: true, reason: 'ban', unblockDate: '2026-12-01T10:00:00.000Z' };

  it('refusing a call is told to the listeners, and the call still fails with it', async () => {
    const heard: unknown[] = [];
    const stop = onSuspended((b) => heard.push(b));
    answer = () => json(403, suspension);
    setSessionToken('suspended');
    await expect(request(getListing, { params: { id: '1' } })).rejects.toMatchObject({ status: 403, message: suspension.message });
    // Any other 403 is not a suspension.
    answer = () => json(403, { message: 'Je hebt geen toegang tot deze actie.' });
    await expect(request(getListing, { params: { id: '1' } })).rejects.toMatchObject({ status: 403 });
    stop();
    expect(heard).toEqual([suspension]);
    expect(sessionToken()).toBe('suspended');
  });

  it('ending the session at renewal is told too, and the session is over', async () => {
    const heard: unknown[] = [];
    const stop = onSuspended((b) => heard.push(b));
    server({ valid: 'none', refresh: () => json(403, suspension) });
    setSessionToken('revoked');
    await expect(request(getListing, { params: { id: '1' } })).rejects.toMatchObject({ status: 401 });
    stop();
    expect(heard).toEqual([suspension]);
    expect(sessionToken()).toBeNull();
  });
});

describe('the check of a stored session at start', () => {
  const now = 1_800_000_000_000;
  const expired = jwt({ sub: 'u1', exp: now / 1000 - 60 });
  const fresh = jwt({ sub: 'u1', exp: now / 1000 + 900 });
  const verify = (url: string, token: string | null) =>
    url === '/api/auth/refresh' ? json(200, { token: fresh }) : token === fresh ? json(200, { user: { id: 'u1' } }) : unauthorized();

  it('renews an expired token before verifying it', async () => {
    answer = verify;
    setSessionToken(expired);
    await expect(verifyStoredSession(now)).resolves.toEqual({ user: { id: 'u1' } });
    expect(calls.map((c) => [c.url, c.authorization])).toEqual([
      ['/api/auth/refresh', null],
      ['/api/auth/verify', `Bearer ${fresh}`],
    ]);
    expect(sessionToken()).toBe(fresh);
  });

  it('verifies a token that has not expired as it is', async () => {
    answer = verify;
    setSessionToken(fresh);
    await verifyStoredSession(now);
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/verify']);
  });

  it('rejects, and the session is over, when the cookie cannot renew it', async () => {
    answer = (url) => (url === '/api/auth/refresh' ? json(401, { message: 'Niet geautoriseerd. Log opnieuw in.' }) : unauthorized());
    setSessionToken(expired);
    await expect(verifyStoredSession(now)).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh']);
    expect(sessionToken()).toBeNull();
  });
});

describe('tokenExpiry', () => {
  it('reads the exp claim in milliseconds', () => {
    expect(tokenExpiry(jwt({ sub: 'ü', exp: 1_800_000_000 }))).toBe(1_800_000_000_000);
  });
  it('is null for what is not a JWT with exp', () => {
    expect(tokenExpiry('geen-token')).toBeNull();
    expect(tokenExpiry(jwt({ sub: 'x' }))).toBeNull();
    expect(tokenExpiry('a.%%%.c')).toBeNull();
  });
});
