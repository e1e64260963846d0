// The one check of a request path, before anything routes on it. Proxies (the local edge, the
// gateway) choose a target from the path and pass it on as written; whoever serves it resolves
// `..` and percent-encoding later. A path that could mean something else after that is refused,
// so routing and serving always see the same path. No dependencies: the local edge imports it too.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const INVALID_PATH = 'Ongeldig pad.';

/** `%` not followed by two hex digits; and the encodings of `/`, `\` and NUL. */
const BAD_ESCAPE = /%(?![0-9a-f]{2})|%(?:2f|5c|00)/i;
/** A segment that is `.` or `..` once decoded (`%2e`, `%2E`, `.%2e`, …). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The request target (path and query) with repeated slashes collapsed, or undefined when the path
 * must be refused: not starting with `/`, a `.` or `..` segment (raw or percent-encoded), an
 * encoded `/` or `\`, a raw `\`, NUL, a `#`, or invalid percent-encoding. The query is left as is.
 */
export function checkedUrl(url: string | undefined): string | undefined {
  if (!url || url[0] !== '/') return undefined;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (/[\\\0#]/.test(path) || BAD_ESCAPE.test(path)) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => DOT_SEGMENT.test(s))) return undefined;
  if (!path.includes('//')) return url;
  return path.replace(/\/{2,}/g, '/') + (q === -1 ? '' : url.slice(q));
}

/**
 * Node middleware (express or a plain server): refuses a bad path with 400 and a Dutch JSON
 * message, and otherwise puts the normalised target in `req.url` before any router sees it.
 * Returns false when it answered.
 */
export function acceptPath(req: IncomingMessage, res: ServerResponse): boolean {
  const url = checkedUrl(req.url);
  if (url === undefined) {
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify({ message: INVALID_PATH }));
    return false;
  }
  req.url = url;
  return true;
}

/** `acceptPath` as express middleware: first in every app that routes on the path. */
export function checkPath(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (acceptPath(req, res)) next();
}
