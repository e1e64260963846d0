import { isOpenReport, MODERATION_MESSAGES } from '@ruilplein/contracts';
import { badRequest, conflict, notFound, now, type HandlerPart } from '@ruilplein/service-kit';
import type { ModerationContext, ReportDoc } from '../context.ts';
import { changeStatus, FILTERS, ignoreDuplicate, newId, openKey, toReports } from './model.ts';

/** Reports (spec 2 §3, §4): members report another member, admins read them and set their status. */
export function reportHandlers(ctx: ModerationContext) {
  return {
    moderation: {
      createReport: async ({ principal, body }) => {
        const reporterId = principal.userId.toLowerCase();
        const reportedId = body.reportedID;
        if (reportedId === reporterId) throw badRequest(MODERATION_MESSAGES.notYourself);
        const reported = await ctx.members.byId(reportedId);
        if (!reported || reported.deleted || !reported.activated) throw notFound(MODERATION_MESSAGES.memberNotFound);
        const listingId = body.reportedListingID ?? null;
        if (listingId) {
          const listing = await ctx.listings.findOne({ _id: listingId });
          if (!listing || listing.deleted) throw notFound(MODERATION_MESSAGES.listingNotFound);
          // A report is about the member reported: a listing of anyone else would put it on their record
          // (the offer screen names a listing of the member reported; decisions "One report dialog?").
          if (listing.ownerId !== reportedId) throw badRequest(MODERATION_MESSAGES.listingNotOfReported);
        }
        const at = now();
        const doc: ReportDoc = { _id: newId(), reporterId, reportedId, reportedListingId: listingId, reason: body.reason, ...(body.category && { category: body.category }), status: 'Nieuw', createdAt: at, updatedAt: at };
        await ctx.reports.insertOne(doc);
        await claimOpenReport(ctx, openKey(reporterId, reportedId), doc._id);
        return (await toReports(ctx, [doc]))[0]!;
      },
      listReports: async ({ query }) => {
        const docs = await ctx.reports.find(FILTERS[query.status]).sort({ createdAt: -1, _id: -1 }).skip(query.skip).limit(query.take).toArray();
        return toReports(ctx, docs);
      },
      setReportStatus: async ({ params, body }) => {
        const report = await changeStatus(ctx, params.id, body, now());
        if (!report) throw notFound(MODERATION_MESSAGES.reportNotFound);
        return (await toReports(ctx, [report]))[0]!;
      },
    },
  } satisfies HandlerPart<'moderation'>;
}

/**
 * One open report per reporter and reported member. The report is written first, then it claims
 * the pair (`_id` `<reporter>:<reported>`): of two reports at once one gets the claim and the other
 * is taken back. A claim left by a report that has been closed since is taken over.
 */
async function claimOpenReport(ctx: ModerationContext, key: string, reportId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await ctx.openReports.insertOne({ _id: key, reportId });
      return;
    } catch (err) {
      ignoreDuplicate(err);
    }
    const claim = await ctx.openReports.findOne({ _id: key });
    if (!claim) continue;
    const holder = await ctx.reports.findOne({ _id: claim.reportId }, { projection: { status: 1 } });
    if (holder && isOpenReport(holder.status)) break;
    const taken = await ctx.openReports.updateOne({ _id: key, reportId: claim.reportId }, { $set: { reportId } });
    if (taken.modifiedCount === 1) return;
  }
  await ctx.reports.deleteOne({ _id: reportId });
  throw conflict(MODERATION_MESSAGES.alreadyReported);
}
