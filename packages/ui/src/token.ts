// The session's access token: one copy per page, kept in localStorage as the seed did, so the API
// client (client.ts) sends and renews it and the SessionProvider (session.tsx) shows it.

const tokenKey = 'ruilplein.token';

let token: string | null | undefined; // undefined: storage not read yet
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return localStorage.getItem(tokenKey);
  } catch {
    return null; // blocked storage means no session
  }
}

/** The current access token, or null when nobody is signed in. */
export function sessionToken(): string | null {
  if (token === undefined) token = read();
  return token;
}

/** Keeps a new token (a login or a renewal), or forgets it (null: the session ended). */
export function setSessionToken(next: string | null): void {
  if (next === sessionToken()) return;
  token = next;
  try {
    if (next === null) localStorage.removeItem(tokenKey);
    else localStorage.setItem(tokenKey, next);
  } catch {
    // The session still works for this page; it is just not remembered.
  }
  for (const listener of listeners) listener();
}

/** Called on every change of the token; returns the unsubscribe function (useSyncExternalStore's shape). */
export function onSessionToken(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Another tab that renewed, signed in or signed out changed the stored token: this tab follows, so
// two tabs do not renew with the same (rotated, hence spent) refresh cookie.
const page = globalThis as { addEventListener?: (type: 'storage', listener: (event: { key: string | null; newValue: string | null }) => void) => void };
if (typeof page.addEventListener === 'function') {
  page.addEventListener('storage', (event) => {
    if (event.key !== tokenKey && event.key !== null) return; // null: storage cleared
    token = event.key === null ? null : event.newValue;
    for (const listener of listeners) listener();
  });
}

/**
 * When the token stops being valid, from its `exp` claim (ms since the epoch); null when it is not
 * a readable JWT. Only a hint for renewing at start: the server decides.
 */
export function tokenExpiry(jwt: string): number | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp: unknown = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}
