// The ui client's upload transport: `request` with `onUploadProgress` goes through XMLHttpRequest
// (its upload events report progress) and otherwise behaves as every other call: the Dutch
// message, one renewal after a 401 with the same Idempotency-Key, and a suspension heard by the shell.
import { IDEMPOTENCY_KEY_HEADER, type RouteRef } from '@ruilplein/contracts/browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request } from '../src/client.ts';
import { onSuspended } from '../src/suspended.ts';
import { sessionToken, setSessionToken } from '../src/token.ts';

interface Answer {
  status: number;
  type?: string;
  body?: string;
  /** No answer at all: the connection failed. */
  network?: boolean;
}

/** A stand-in for the browser's XMLHttpRequest that answers each request with the next of `answers`. */
class FakeXhr {
  static answers: Answer[] = [];
  static sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  ontimeout?: () => void;
  onabort?: () => void;
  status = 0;
  responseText = '';
  private request = { method: '', url: '', headers: {} as Record<string, string>, body: undefined as unknown };
  private type = '';
  open(method: string, url: string) {
    this.request.method = method;
    this.request.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.request.headers[name] = value;
  }
  getResponseHeader(name: string) {
    return name === 'content-type' ? this.type : null;
  }
  abort() {
    this.onabort?.();
  }
  send(body: unknown) {
    FakeXhr.sent.push({ ...this.request, body });
    const answer = FakeXhr.answers.shift()!;
    queueMicrotask(() => {
      if (answer.network) return this.onerror?.();
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      this.status = answer.status;
      this.type = answer.type ?? 'application/json; charset=utf-8';
      this.responseText = answer.body ?? '';
      this.onload?.();
    });
  }
}

const create: RouteRef<unknown, unknown, unknown, { message: string }> = { service: 'listing', method: 'post', path: '/api/listing/create', access: 'user', form: true };
const storage = new Map<string, string>();
let fetched: string[];

beforeEach(() => {
  FakeXhr.answers = [];
  FakeXhr.sent = [];
  fetched = [];
  storage.clear();
  const store = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
    removeItem: (key: string) => storage.delete(key),
  };
  vi.stubGlobal('localStorage', store);
  vi.stubGlobal('sessionStorage', store);
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  // Only the token renewal goes through fetch here.
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    return new Response(JSON.stringify({ token: 'fresh' }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  setSessionToken('old');
});
afterEach(() => vi.unstubAllGlobals());

const send = (progress?: number[], key?: string) =>
  request(create, { form: new FormData(), onUploadProgress: (fraction) => progress?.push(fraction), ...(key && { headers: { [IDEMPOTENCY_KEY_HEADER]: key } }) });

describe('request with upload progress', () => {
  it('sends the form with the bearer token over XMLHttpRequest, reports progress and returns the JSON answer', async () => {
    FakeXhr.answers = [{ status: 201, body: JSON.stringify({ message: 'ok' }) }];
    const progress: number[] = [];
    await expect(send(progress)).resolves.toEqual({ message: 'ok' });
    expect(progress).toEqual([0, 0.5, 1]);
    expect(FakeXhr.sent[0]).toMatchObject({ method: 'POST', url: '/api/listing/create', headers: { authorization: 'Bearer old', accept: 'application/json' } });
    expect(FakeXhr.sent[0]!.body).toBeInstanceOf(FormData);
    expect(FakeXhr.sent[0]!.headers).not.toHaveProperty('content-type');
    expect(fetched).toEqual([]);
  });

  it('gives the server’s Dutch message, else one by status, and status 0 without a connection', async () => {
    FakeXhr.answers = [{ status: 403, body: JSON.stringify({ message: 'Je hebt al 5 actieve listings.' }) }, { status: 413, type: 'text/html', body: '<html>' }, { status: 0, network: true }];
    await expect(send()).rejects.toMatchObject({ status: 403, message: 'Je hebt al 5 actieve listings.' });
    await expect(send()).rejects.toMatchObject({ status: 413, message: 'De afbeeldingen zijn samen te groot.' });
    await expect(send()).rejects.toMatchObject({ status: 0, message: 'Geen verbinding met de server.' });
  });

  it('renews the token once after a 401 and sends again with the new one and the same Idempotency-Key', async () => {
    FakeXhr.answers = [{ status: 401, body: '{"message":"Token verlopen."}' }, { status: 201, body: '{"message":"ok"}' }];
    await expect(send([], 'formulier-1234')).resolves.toEqual({ message: 'ok' });
    expect(fetched).toEqual(['/api/auth/refresh']);
    expect(FakeXhr.sent.map((sent) => sent.headers.authorization)).toEqual(['Bearer old', 'Bearer fresh']);
    expect(FakeXhr.sent.map((sent) => sent.headers[IDEMPOTENCY_KEY_HEADER])).toEqual(['formulier-1234', 'formulier-1234']);
  });

  it('tells the shell of a suspension, as every other call does', async () => {
    const suspension = { message: 'Je account is geblokkeerd.', blocked: true, reason: 'ban', unblockDate: '2026-12-01T10:00:00.000Z' };
    const heard: unknown[] = [];
    const stop = onSuspended((body) => heard.push(body));
    FakeXhr.answers = [{ status: 403, body: JSON.stringify(suspension) }];
    await expect(send()).rejects.toMatchObject({ status: 403, message: suspension.message });
    stop();
    expect(heard).toEqual([suspension]);
    expect(sessionToken()).toBe('old');
  });
});
