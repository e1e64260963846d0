import { LATEST_REPORTS } from '@ruilplein/contracts';
import type { HandlerPart } from '@ruilplein/service-kit';
import type { ModerationContext } from '../context.ts';
import { FILTERS, fullName, toReports } from '../reports/model.ts';

/** The admin dashboard (spec 2 §2): totals from the service's own projections, the latest reports. */
export function statsHandlers(ctx: ModerationContext) {
  return {
    moderation: {
      stats: async () => {
        const [totals, openReports, latest] = await Promise.all([
          ctx.totals.findOne({ _id: 'totals' }),
          // Reports are few next to members and listings: counted when asked.
          ctx.reports.countDocuments(FILTERS.open),
          ctx.reports.find({}).sort({ createdAt: -1, _id: -1 }).limit(LATEST_REPORTS).toArray(),
        ]);
        return {
          totalUsers: Math.max(0, totals?.totalUsers ?? 0),
          activeListings: Math.max(0, totals?.activeListings ?? 0),
          openReports,
          latestReports: (await toReports(ctx, latest)).map((r) => ({ id: r.id, reporterName: fullName(r.reporter), reportedName: fullName(r.reported), reason: r.reason, createdAt: r.createdAt })),
        };
      },
    },
  } satisfies HandlerPart<'moderation'>;
}
