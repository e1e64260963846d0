// A suspended member's calls answer 403 with the suspension (contracts auth/suspensions.ts); wherever
// that happens (a remote's screen, a token renewal), the shell hears of it here and shows /geblokkeerd.
import { isSuspendedBody, type SuspendedBody } from '@ruilplein/contracts/browser';
import { ApiError } from './api.ts';
import { onSessionToken, sessionToken } from './token.ts';

const listeners = new Set<(suspension: SuspendedBody) => void>();
const storageKey = 'ruilplein.suspension';
/**
 * The suspension that last ended or refused the session; forgotten when someone signs in. Kept
 * in the tab's sessionStorage too: a suspension that reaches an open page (the notification hub)
 * ends its session at once, and reloading that tab must still say why rather than ask for a login.
 */
let last: SuspendedBody | null | undefined; // undefined: storage not read yet
onSessionToken(() => {
  if (!sessionToken()) return;
  last = null;
  try {
    sessionStorage.removeItem(storageKey);
  } catch {
    // No storage: nothing was kept.
  }
});

function recalled(): SuspendedBody | null {
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null');
    return isSuspendedBody(kept) ? kept : null;
  } catch {
    return null; // no storage (the prerender) or an unreadable entry
  }
}

/**
 * The suspension that ended the session, if that is why there is none: a page that sends a
 * signed-out visitor to /login sends them to /geblokkeerd instead (the session ends before the
 * router moves). One whose end date has passed (by this browser's clock) no longer counts.
 */
export function endedBySuspension(): SuspendedBody | null {
  if (last === undefined) last = recalled();
  if (last?.unblockDate && Date.parse(last.unblockDate) <= Date.now()) return null;
  return last;
}

/** Called with the suspension whenever a call is refused because the member is suspended; returns the unsubscribe function. */
export function onSuspended(listener: (suspension: SuspendedBody) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners when `err` is a suspension; returns `err` so callers can rethrow it. */
export function noticeSuspension<E>(err: E): E {
  if (!(err instanceof ApiError && err.status === 403 && isSuspendedBody(err.body))) return err;
  last = err.body;
  try {
    sessionStorage.setItem(storageKey, JSON.stringify(err.body));
  } catch {
    // Not kept across a reload; this page still knows.
  }
  for (const listener of listeners) listener(err.body);
  return err;
}
