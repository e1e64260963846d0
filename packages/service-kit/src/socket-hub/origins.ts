/**
 * Which browser pages may open a hub: the platform's own origin (PUBLIC_URL), any the service
 * allows besides (chat's CHAT_ALLOWED_ORIGINS), and in local mode any loopback origin (the
 * frontends' development servers run on ports of their own). Websockets are not bound by CORS: the
 * Origin header the browser sets is the only sign of which site opened one. A request without it
 * comes from no browser page (tools, benchmarks) and still needs its token.
 */
export function originPolicy(options: { publicUrl: string; allowed?: readonly string[]; local?: boolean }): (origin: string | undefined) => boolean {
  const allowed = new Set([options.publicUrl, ...(options.allowed ?? [])].map(normalize).filter((o): o is string => !!o));
  return (origin) => {
    if (origin === undefined) return true;
    const normalized = normalize(origin);
    if (!normalized) return false;
    if (allowed.has(normalized)) return true;
    return !!options.local && isLoopback(normalized);
  };
}

/** `scheme://host[:port]` in lower case, default ports left out; undefined for anything else (`null`, a path). */
function normalize(origin: string): string | undefined {
  const url = URL.parse(origin.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  return url.origin.toLowerCase();
}

function isLoopback(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}
