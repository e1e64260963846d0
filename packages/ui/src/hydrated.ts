import { useSyncExternalStore } from 'react';

const nothingToWatch = () => () => {};

/**
 * False on the server and while a prerendered page is hydrated, true in every other render (right
 * away under createRoot). What only the browser knows (a stored session, `matchMedia`, the clock)
 * waits for it: the first render in the browser must be the server's, or React logs a mismatch
 * and renders the page again.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
}
