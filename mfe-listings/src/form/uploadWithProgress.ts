// The add and edit forms send up to 20 MB of photos: XMLHttpRequest reports the upload's progress,
// which fetch (under the ui client's `request`) cannot. Same contract otherwise: the session's
// token as bearer, a Dutch `ApiError` from the answer's `{message}`, and one renewal of the token
// and one retry after a 401.
import { IDEMPOTENCY_KEY_HEADER } from '@ruilplein/contracts/browser';
import { ApiError, renewSession } from '@ruilplein/ui';

export interface UploadOptions {
  method: 'POST' | 'PUT';
  /** Same origin: `/api/listing/create`. */
  url: string;
  form: FormData;
  /** The session's token; null sends none. */
  token: string | null;
  /**
   * The create's `Idempotency-Key`: one per form submission, the same on every retry of it (here
   * after a renewed token, or the member sending the unchanged form again), so a create that
   * went through but whose answer was lost is answered again instead of made twice.
   */
  idempotencyKey?: string;
  /** The share of the body sent so far, 0 to 1; starts again when the call is retried. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

// As the ui client words answers that carry no message of their own.
const fallbackMessages: Record<number, string> = {
  401: 'Niet geautoriseerd. Log opnieuw in.',
  403: 'Je hebt hier geen toegang toe.',
  404: 'Niet gevonden.',
  413: 'De afbeeldingen zijn samen te groot.',
  429: 'Te veel verzoeken. Probeer het later opnieuw.',
};
const genericMessage = 'Er ging iets mis. Probeer het later opnieuw.';

const isJson = (type: string) => type.includes('json');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The Dutch message of an error answer: `{message}` JSON, else plain text, else by status. */
export function errorOf(status: number, contentType: string, text: string): ApiError {
  const body = isJson(contentType) ? parseJson(text) : undefined;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) return new ApiError(body.message, status, body);
  if (contentType.startsWith('text/plain') && text.trim()) return new ApiError(text.trim(), status);
  return new ApiError(fallbackMessages[status] ?? genericMessage, status, body);
}

function send<R>({ method, url, form, onProgress, signal, idempotencyKey }: UploadOptions, token: string | null): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    if (idempotencyKey) xhr.setRequestHeader(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const type = xhr.getResponseHeader('content-type') ?? '';
      const text = xhr.responseText;
      if (xhr.status < 200 || xhr.status >= 300) return reject(errorOf(xhr.status, type, text));
      if (!text) return resolve(undefined as R);
      if (!isJson(type)) return resolve(text as R);
      const body = parseJson(text);
      if (body === undefined) return reject(new ApiError('Onverwacht antwoord van de server.', xhr.status));
      resolve(body as R);
    };
    xhr.onerror = () => reject(new ApiError('Geen verbinding met de server.', 0));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('Afgebroken', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    onProgress?.(0);
    xhr.send(form);
  });
}

/** Sends a multipart form with upload progress; the answer's JSON, or an `ApiError` with a Dutch message. */
export async function uploadWithProgress<R>(options: UploadOptions): Promise<R> {
  try {
    return await send<R>(options, options.token);
  } catch (err) {
    if (!options.token || !(err instanceof ApiError) || err.status !== 401) throw err;
    // The access token ran out while the form was filled in: renew once (the refresh cookie) and send again.
    const fresh = await renewSession();
    if (!fresh) throw err;
    return send<R>(options, fresh);
  }
}
