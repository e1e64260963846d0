import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/** How long the sliders wait after the last move before the address (and so the search) follows. */
export const SLIDER_DEBOUNCE_MS = 350;

/**
 * Filters kept in the address's search params. `committed` is what the address says (what the
 * search asks); `draft` is what the controls show. A slider changes the draft at once and the
 * address once it rests; other controls change both at once. Back and forward move the controls.
 */
export function useUrlFilters<F extends object>(read: (params: URLSearchParams) => F, write: (filters: F) => URLSearchParams) {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // Keyed by the text: a new params object with the same content is the same filters.
  const committed = useMemo(() => read(new URLSearchParams(key)), [key, read]);
  // The draft belongs to the filters it was made from: when the address moves on (the draft
  // arrived there, or back and forward), the controls show the address.
  const [edit, setEdit] = useState({ from: committed, draft: committed });
  const draft = edit.from === committed ? edit.draft : committed;

  useEffect(() => {
    const next = write(draft);
    if (next.toString() === key) return;
    const timer = setTimeout(() => setParams(next, { replace: true }), SLIDER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, key, write, setParams]);

  /** Changes some filters; `settle` (the sliders) lets the address wait until they rest. */
  const change = (patch: Partial<F>, { settle = false } = {}) => {
    const next = { ...draft, ...patch };
    setEdit({ from: committed, draft: next });
    if (!settle) setParams(write(next), { replace: true });
  };

  return { committed, draft, change };
}
