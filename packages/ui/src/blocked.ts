// A blocked member's calls answer 403 with the block (contracts auth/blocks.ts); wherever that
// happens (a remote's screen, a token renewal), the shell hears of it here and shows /geblokkeerd.
import { isBlockedBody, type BlockedBody } from '@ruilplein/contracts/browser';
import { ApiError } from './api.ts';
import { onSessionToken, sessionToken } from './token.ts';

const listeners = new Set<(block: BlockedBody) => void>();
/** The block that last ended or refused the session; forgotten when someone signs in. */
let last: BlockedBody | null = null;
onSessionToken(() => {
  if (sessionToken()) last = null;
});

/**
 * The block that ended the session, if that is why there is none: a page that sends a signed-out
 * visitor to /login sends them to /geblokkeerd instead (the session ends before the router moves).
 */
export const endedByBlock = (): BlockedBody | null => last;

/** Called with the block whenever a call is refused because the member is blocked; returns the unsubscribe function. */
export function onBlocked(listener: (block: BlockedBody) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners when `err` is a block; returns `err` so callers can rethrow it. */
export function noticeBlock<E>(err: E): E {
  if (!(err instanceof ApiError && err.status === 403 && isBlockedBody(err.body))) return err;
  last = err.body;
  for (const listener of listeners) listener(err.body);
  return err;
}
