// One line under the add-listing form and on the services page (issue 23): how many members around
// the member's place have a saved search or a wishlisted listing that this would match. Asked once
// the words rest for a moment (the route is rate-limited); the line is a live region.
import { useEffect, useState } from 'react';
import { Users } from 'lucide-react';
import { DEMAND_DEFAULT_DISTANCE_KM, listingApi } from '@ruilplein/contracts/browser';
import { failureMessage, useApi } from '@ruilplein/ui';
import { demandSentence } from './words.ts';
import * as styles from './DemandLine.module.css';

/** Typing waits this long before the count is asked again. */
const SETTLE_MS = 500;

/** The text once it rests. */
function useSettled(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

export function DemandLine({ q, categoryIds, distanceKm = DEMAND_DEFAULT_DISTANCE_KM }: { q: string; categoryIds: readonly string[]; distanceKm?: number }) {
  const input = { q: q.trim().replace(/\s+/g, ' '), categoryIds: [...categoryIds].sort().join(','), distanceKm };
  // Compared as text: a new array with the same ids is the same question.
  const settled = JSON.parse(useSettled(JSON.stringify(input))) as typeof input;
  const query = {
    ...(settled.q && { q: settled.q }),
    ...(settled.categoryIds && { categoryIds: settled.categoryIds }),
    distanceKm: String(settled.distanceKm),
  };
  const asked = Boolean(settled.q || settled.categoryIds);
  const demand = useApi(listingApi.demand, { query }, { enabled: asked, staleTime: 60_000 });

  let text = '';
  if (asked && demand.isPending) text = 'Bezig met nagaan wie dit zoekt…';
  else if (asked && demand.isError) text = failureMessage(demand.error, 'Kon niet nagaan hoeveel leden dit zoeken.');
  else if (asked && demand.data) text = demandSentence(demand.data, settled.distanceKm);
  // The live region holds the sentence only; the drawing beside it is decoration.
  return (
    <div className={!text ? styles.idle : demand.isError ? styles.problem : styles.line} data-testid="demand-line" data-few={demand.data?.few ? 'true' : undefined}>
      {text && <Users aria-hidden="true" size={18} />}
      <p role="status" className={styles.text}>
        {text}
      </p>
    </div>
  );
}
