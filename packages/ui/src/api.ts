/** A failed API call, with a Dutch message fit to show as is. `status` is 0 when the server was not reached. */
export class ApiError extends Error {
  readonly status: number;
  /** The parsed JSON error body, for fields beside the message (login's `activationAvailable`). */
  readonly body: unknown;
  constructor(message: string, status: number, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as is when it is FormData (file uploads). */
  body?: unknown;
  /** The session token; sent as `Authorization: Bearer`. */
  token?: string | null;
  /** Further request headers (a create's `Idempotency-Key`). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The share of the body sent so far, 0 to 1. Given, the exchange goes through XMLHttpRequest,
   * whose upload events report it (fetch cannot); the answer is read the same way.
   */
  onUploadProgress?: (fraction: number) => void;
}

// For answers that carry no message of their own (an empty body, a proxy's HTML page).
const fallbackMessages: Record<number, string> = {
  401: 'Niet geautoriseerd. Log opnieuw in.',
  403: 'Je hebt hier geen toegang toe.',
  404: 'Niet gevonden.',
  413: 'De afbeeldingen zijn samen te groot.',
  429: 'Te veel verzoeken. Probeer het later opnieuw.',
};
const genericMessage = 'Er ging iets mis. Probeer het later opnieuw.';
const noConnection = () => new ApiError('Geen verbinding met de server.', 0);

/** What came back, whichever transport carried it. */
interface Answer {
  status: number;
  contentType: string;
  text: string;
}

interface Exchange {
  method: NonNullable<ApiOptions['method']>;
  headers: Record<string, string>;
  body: string | FormData | undefined;
  signal: AbortSignal | undefined;
}

async function viaFetch(path: string, { method, headers, body, signal }: Exchange): Promise<Answer> {
  try {
    const res = await fetch(path, { method, headers, signal, body });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  } catch (err) {
    if (signal?.aborted) throw err;
    throw noConnection();
  }
}

/** The part of the browser's XMLHttpRequest used here (the repository's Node type check has no DOM library). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getResponseHeader(name: string): string | null;
  send(body: string | FormData | null): void;
  abort(): void;
  readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  ontimeout: (() => void) | null;
  onabort: (() => void) | null;
  readonly status: number;
  readonly responseText: string;
}

function viaXhr(path: string, { method, headers, body, signal }: Exchange, onProgress: (fraction: number) => void): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new (globalThis as unknown as { XMLHttpRequest: new () => Xhr }).XMLHttpRequest();
    xhr.open(method, path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, contentType: xhr.getResponseHeader('content-type') ?? '', text: xhr.responseText });
    xhr.onerror = () => reject(noConnection());
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('Afgebroken', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    onProgress(0);
    xhr.send(body ?? null);
  });
}

/**
 * One HTTP exchange with the API (same origin: `path` like `/api/category`): the parsed JSON
 * answer, or the text of a plain-text answer. Frontends call `request` (client.ts) with a contract
 * route instead; this is the transport under it, without token renewal.
 */
export async function api<T>(path: string, { method = 'GET', body, token, headers: extra, signal, onUploadProgress }: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...extra, accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  const exchange: Exchange = { method, headers, signal, body: form ? body : body === undefined ? undefined : JSON.stringify(body) };

  const { status, contentType, text } = onUploadProgress ? await viaXhr(path, exchange, onUploadProgress) : await viaFetch(path, exchange);
  if (status < 200 || status >= 300) throw new ApiError(messageOf(status, contentType, text), status, jsonOf(contentType, text));
  if (!text) return undefined as T;
  if (contentType.startsWith('text/plain')) return text as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError('Onverwacht antwoord van de server.', status);
  }
}

function jsonOf(contentType: string, text: string): unknown {
  if (!contentType.includes('json')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // an unreadable body says nothing
  }
}

/** The message of an error answer: `{message}` JSON (our services), plain text (spec'd for some calls), else by status. */
function messageOf(status: number, contentType: string, text: string): string {
  const parsed = jsonOf(contentType, text);
  if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string' && parsed.message) return parsed.message;
  if (contentType.startsWith('text/plain') && text.trim()) return text.trim();
  return fallbackMessages[status] ?? genericMessage;
}
