import { useEffect, useState } from 'react';
import { request } from '@ruilplein/ui';
import { userApi, type PublicStats as UserStats } from '@ruilplein/contracts/browser';

export type StatsState = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; stats: UserStats };

/** The member's trade statistics (GET /api/user/public/stats/{id}); `retry` asks again. */
export function useStats(userId: string): [StatsState, () => void] {
  const [state, setState] = useState<StatsState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    setState({ kind: 'loading' });
    request(userApi.publicStats, { params: { id: userId }, signal: abort.signal })
      .then((stats) => setState({ kind: 'ready', stats }))
      .catch(() => !abort.signal.aborted && setState({ kind: 'error' }));
    return () => abort.abort();
  }, [userId, attempt]);
  return [state, () => setAttempt((n) => n + 1)];
}

const rating = new Intl.NumberFormat('nl-NL', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** An average rating out of 5, like '4,5'; '–' without reviews. */
export const formatRating = (stats: UserStats) => (stats.totalReviewers > 0 ? rating.format(stats.averageRating) : '–');
