import { useApi } from '@ruilplein/ui';
import { userApi, type PublicStats as UserStats } from '@ruilplein/contracts/browser';

/** The member's trade statistics (GET /api/user/public/stats/{id}), shared by the dashboard and the profile. */
export const useStats = (userId: string) => useApi(userApi.publicStats, { params: { id: userId } });

export const statsFailed = 'Je statistieken konden niet worden geladen.';

const rating = new Intl.NumberFormat('nl-NL', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** An average rating out of 5, like '4,5'; '–' without reviews. */
export const formatRating = (stats: UserStats) => (stats.totalReviewers > 0 ? rating.format(stats.averageRating) : '–');
