import { IDEMPOTENCY_KEY_HEADER } from '@ruilplein/contracts/browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// @ruilplein/ui is browser code (it imports its CSS): its error class and the token renewal are stood in for.
const renewSession = vi.fn<() => Promise<string | null>>();
vi.mock('@ruilplein/ui', () => {
  class ApiError extends Error {
    readonly status: number;
    constructor(message: string, status: number) {
      super(message);
      this.status = status;
    }
  }
  return { ApiError, renewSession: () => renewSession() };
});
const { uploadWithProgress } = await import('../src/form/uploadWithProgress.ts');

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

beforeEach(() => {
  FakeXhr.answers = [];
  FakeXhr.sent = [];
  renewSession.mockReset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

const options = (token: string | null = 'old', onProgress?: (fraction: number) => void) => ({
  method: 'POST' as const,
  url: '/api/listing/create',
  form: new FormData(),
  token,
  onProgress,
});

describe('uploadWithProgress', () => {
  it('sends the form with the bearer token, reports progress and returns the JSON answer', async () => {
    FakeXhr.answers = [{ status: 201, body: JSON.stringify({ message: 'ok', listing: { id: '1' } }) }];
    const progress: number[] = [];
    const answer = await uploadWithProgress(options('old', (fraction) => progress.push(fraction)));
    expect(answer).toEqual({ message: 'ok', listing: { id: '1' } });
    expect(progress).toEqual([0, 0.5, 1]);
    expect(FakeXhr.sent[0]).toMatchObject({ method: 'POST', url: '/api/listing/create', headers: { authorization: 'Bearer old', accept: 'application/json' } });
    expect(FakeXhr.sent[0]!.body).toBeInstanceOf(FormData);
  });

  it('gives the server’s Dutch message, else one by status', async () => {
    FakeXhr.answers = [{ status: 403, body: JSON.stringify({ message: 'Je hebt al 5 actieve listings.' }) }, { status: 413, type: 'text/html', body: '<html>' }];
    await expect(uploadWithProgress(options())).rejects.toMatchObject({ status: 403, message: 'Je hebt al 5 actieve listings.' });
    await expect(uploadWithProgress(options())).rejects.toMatchObject({ status: 413, message: 'De afbeeldingen zijn samen te groot.' });
  });

  it('fails with status 0 when the server was not reached', async () => {
    FakeXhr.answers = [{ status: 0, network: true }];
    await expect(uploadWithProgress(options())).rejects.toMatchObject({ status: 0, message: 'Geen verbinding met de server.' });
  });

  it('renews the token once after a 401 and sends again with the new one', async () => {
    FakeXhr.answers = [{ status: 401, body: '{"message":"Token verlopen."}' }, { status: 200, body: '{"message":"bijgewerkt"}' }];
    renewSession.mockResolvedValue('fresh');
    await expect(uploadWithProgress(options())).resolves.toEqual({ message: 'bijgewerkt' });
    expect(FakeXhr.sent.map((sent) => sent.headers.authorization)).toEqual(['Bearer old', 'Bearer fresh']);
  });

  it('gives up with the 401 when the renewal is refused, and never renews without a token', async () => {
    FakeXhr.answers = [{ status: 401, body: '{"message":"Token verlopen."}' }, { status: 401, body: '' }];
    renewSession.mockResolvedValue(null);
    await expect(uploadWithProgress(options())).rejects.toMatchObject({ status: 401, message: 'Token verlopen.' });
    await expect(uploadWithProgress(options(null))).rejects.toMatchObject({ status: 401, message: 'Niet geautoriseerd. Log opnieuw in.' });
    expect(renewSession).toHaveBeenCalledTimes(1);
    expect(FakeXhr.sent).toHaveLength(2);
  });

  it('sends the Idempotency-Key it is given, the same one again when it retries after a 401', async () => {
    FakeXhr.answers = [{ status: 401, body: '{"message":"Token verlopen."}' }, { status: 201, body: '{"message":"ok"}' }];
    renewSession.mockResolvedValue('fresh');
    await uploadWithProgress({ ...options(), idempotencyKey: 'formulier-1234' });
    expect(FakeXhr.sent.map((sent) => sent.headers[IDEMPOTENCY_KEY_HEADER])).toEqual(['formulier-1234', 'formulier-1234']);
    // Without a key (an edit), none is sent.
    FakeXhr.answers = [{ status: 200, body: '{"message":"ok"}' }];
    await uploadWithProgress(options());
    expect(FakeXhr.sent[2]!.headers).not.toHaveProperty(IDEMPOTENCY_KEY_HEADER);
  });
});
