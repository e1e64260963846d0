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
  signal?: AbortSignal;
}

// For answers that carry no message of their own (an empty body, a proxy's HTML page).
const fallbackMessages: Record<number, string> = {
  401: 'Niet geautoriseerd. Log opnieuw in.',
  403: 'Je hebt hier geen toegang toe.',
  404: 'Niet gevonden.',
  429: 'Te veel verzoeken. Probeer het later opnieuw.',
};
const genericMessage = 'Er ging iets mis. Probeer het later opnieuw.';

/**
 * One HTTP exchange with the API (same origin: `path` like `/api/category`): the parsed JSON
 * answer, or the text of a plain-text answer. Frontends call `request` (client.ts) with a contract
 * route instead; this is the transport under it, without token renewal.
 */
export async function api<T>(path: string, { method = 'GET', body, token, signal }: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';

  let res: Response;
  let text: string;
  try {
    res = await fetch(path, { method, headers, signal, body: form ? body : body === undefined ? undefined : JSON.stringify(body) });
    text = await res.text();
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError('Geen verbinding met de server.', 0);
  }
  if (!res.ok) throw new ApiError(messageOf(res, text), res.status, jsonOf(res, text));
  if (!text) return undefined as T;
  if ((res.headers.get('content-type') ?? '').startsWith('text/plain')) return text as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError('Onverwacht antwoord van de server.', res.status);
  }
}

function jsonOf(res: Response, text: string): unknown {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // an unreadable body says nothing
  }
}

/** The message of an error answer: `{message}` JSON (our services), plain text (spec'd for some calls), else by status. */
function messageOf(res: Response, text: string): string {
  const parsed = jsonOf(res, text);
  if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string' && parsed.message) return parsed.message;
  if ((res.headers.get('content-type') ?? '').startsWith('text/plain') && text.trim()) return text.trim();
  return fallbackMessages[res.status] ?? genericMessage;
}
