// A suspended member's calls answer 403 with the suspension (contracts auth/suspensions.ts); wherever
// that happens (a remote's screen, a token renewal), the shell hears of it here and shows /geblokkeerd.
import { isSuspendedBody, type SuspendedBody } from '@ruilplein/contracts/browser';
import { ApiError } from './api.ts';
import { onSessionToken, sessionToken } from './token.ts';

const listeners = new Set<(suspension: SuspendedBody) => void>();
/** The suspension that last ended or refused the session; forgotten when someone signs in. */
let last: SuspendedBody | null = null;
onSessionToken(() => {
  if (sessionToken()) last = null;
});

/**
 * The suspension that ended the session, if that is why there is none: a page that sends a
 * signed-out visitor to /login sends them to /geblokkeerd instead (the session ends before the router moves).
 */
export const endedBySuspension = (): SuspendedBody | null => last;

/** Called with the suspension whenever a call is refused because the member is suspended; returns the unsubscribe function. */
export function onSuspended(listener: (suspension: SuspendedBody) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners when `err` is a suspension; returns `err` so callers can rethrow it. */
export function noticeSuspension<E>(err: E): E {
  if (!(err instanceof ApiError && err.status === 403 && isSuspendedBody(err.body))) return err;
  last = err.body;
  for (const listener of listeners) listener(err.body);
  return err;
}
