// The typed API client: frontends name a contract route (`@ruilplein/contracts/browser`) and get
// its answer type; no frontend writes a URL or a response type. The session's token goes along by
// itself and is renewed silently (docs/architecture.md "Identity").
import { authApi, type RouteRef } from '@ruilplein/contracts/browser';
import { api, ApiError } from './api.ts';
import { noticeSuspension } from './suspended.ts';
import { sessionToken, setSessionToken, tokenExpiry } from './token.ts';

// A part a route does not declare is `unknown` (or undefined/never): it may not be passed.
type Absent<T> = unknown extends T ? true : [T] extends [never] ? true : [T] extends [undefined] ? true : false;
// An object whose fields are all optional may be left out.
type Optional<T> = Record<string, never> extends T ? true : false;
type Part<K extends string, T> = Absent<T> extends true ? { [k in K]?: undefined } : Optional<T> extends true ? { [k in K]?: T } : { [k in K]: T };

export type RequestOptions<P = unknown, Q = unknown, B = unknown> = Part<'params', P> &
  Part<'query', Q> &
  Part<'body', B> & {
    /** File fields of a form route (`form: true`), sent with the body's text fields as multipart. */
    files?: Record<string, Blob | readonly Blob[] | null | undefined>;
    /** A form route's whole multipart body, built by the caller; sent instead of body and files. */
    form?: FormData;
    /** Further request headers (a create's `Idempotency-Key`, the same on the retry after a renewal). */
    headers?: Record<string, string>;
    /** The share of the body sent so far, 0 to 1 (XMLHttpRequest upload events); starts again on a retry. */
    onUploadProgress?: (fraction: number) => void;
    signal?: AbortSignal;
    /** null: send no token, even when signed in (a login must not be retried as the stored member's call). */
    token?: null;
  };

type OptionsArg<P, Q, B> = Optional<RequestOptions<P, Q, B>> extends true ? [options?: RequestOptions<P, Q, B>] : [options: RequestOptions<P, Q, B>];

/** The path of `ref` with its `:name` parameters filled in and its query appended (arrays as repeated keys). */
export function urlOf(ref: Pick<RouteRef, 'path'>, params?: unknown, query?: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const path = ref.path.replace(/:([A-Za-z_$][\w$]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`${ref.path}: parameter ${name} ontbreekt`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      search.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** A form route's body as multipart: its text fields (repeated for arrays; undefined and null left out), then its files. */
export function formOf(body: unknown, files: RequestOptions['files'] = {}): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  const add = (fields: object) => {
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
        if (item === undefined || item === null) continue;
        form.append(name, item instanceof Blob ? item : String(item));
      }
    }
  };
  add((body ?? {}) as object);
  add(files);
  return form;
}

/**
 * Calls a contract route and returns its answer (JSON, or the text of a plain-text answer).
 * Errors are `ApiError`s with a Dutch message. A 401 to a call that carried the session's token
 * renews the token once (one renewal shared by concurrent calls) and retries the call once; when
 * renewal fails the session ends, and a public route is retried as a guest.
 */
export async function request<P, Q, B, R>(ref: RouteRef<P, Q, B, R>, ...[options]: OptionsArg<P, Q, B>): Promise<R> {
  const { params, query, files, form, headers, onUploadProgress, signal } = (options ?? {}) as RequestOptions & { params?: unknown; query?: unknown; body?: unknown };
  const url = urlOf(ref, params, query);
  const body = form ?? (ref.form || files ? formOf(options?.body, files) : options?.body);
  const method = ref.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const send = (token: string | null) => api<R>(url, { method, body, token, signal, ...(headers && { headers }), ...(onUploadProgress && { onUploadProgress }) });
  const token = options?.token === null ? null : sessionToken();
  try {
    return await send(token);
  } catch (err) {
    if (!token || !(err instanceof ApiError) || err.status !== 401) throw noticeSuspension(err);
    const fresh = await replacementFor(token);
    if (fresh) return send(fresh).catch((again: unknown) => Promise.reject(noticeSuspension(again)));
    if (ref.access === 'public') return send(null);
    throw err;
  }
}

/** The token to retry with after `stale` was refused: one another call (or tab) already got, a renewed one, or null. */
async function replacementFor(stale: string): Promise<string | null> {
  const current = sessionToken();
  if (current !== stale) return current; // renewed meanwhile, or signed out (null)
  return renewSession();
}

let renewing: Promise<string | null> | null = null;

/**
 * Asks for a fresh access token with the refresh cookie (httpOnly, sent by the browser to
 * /api/auth only) and keeps it. Concurrent callers share one request, as the cookie is rotated on
 * use. A refused renewal ends the session; a throttled or unreachable server keeps it for the next try.
 */
export function renewSession(): Promise<string | null> {
  renewing ??= (async () => {
    const from = sessionToken();
    try {
      // Typed loosely on purpose: an answer without a token is a refusal, whatever the contract says.
      const answer: { token?: unknown } | undefined = await api(authApi.refresh.path, { method: 'POST' });
      if (typeof answer?.token !== 'string' || !answer.token) throw new ApiError('Onverwacht antwoord van de server.', 401);
      // Signed out or in as someone else while waiting: that session stands.
      if (sessionToken() !== from) return sessionToken();
      setSessionToken(answer.token);
      return answer.token;
    } catch (err) {
      // 401 is the auth service's "this login is over"; a throttle (429), a server error or no
      // connection says nothing about the session.
      const refused = err instanceof ApiError && [400, 401, 403].includes(err.status);
      // A suspension ended the session: the shell shows why (/geblokkeerd) rather than the login page.
      if (sessionToken() === from) noticeSuspension(err);
      if (refused && sessionToken() === from) setSessionToken(null);
      return null;
    } finally {
      renewing = null;
    }
  })();
  return renewing;
}

/**
 * The check of a stored session at start: GET /api/auth/verify with the stored token, renewed
 * first when its `exp` has passed (an access token lives minutes, the refresh cookie days), which
 * spares a refused call. Rejects when there is no session or it is over.
 */
export async function verifyStoredSession(now = Date.now()) {
  const token = sessionToken();
  const expiry = token ? tokenExpiry(token) : null;
  if (expiry !== null && expiry <= now) await renewSession();
  if (!sessionToken()) throw new ApiError('Niet geautoriseerd. Log opnieuw in.', 401);
  return request(authApi.verify);
}
