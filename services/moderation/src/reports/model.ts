import { eventRegistry, FORMER_MEMBER, isOpenReport, type Report, type ReportFilter, type ReportResolvedEvent, type ReportStatus } from '@ruilplein/contracts';
import { createEvent, outboxFields } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import type { MemberDoc, ModerationContext, ReportDoc } from '../context.ts';

export const newId = () => new Types.ObjectId().toHexString();

/** The open-report claim of a reporter and a reported member. */
export const openKey = (reporterId: string, reportedId: string) => `${reporterId}:${reportedId}`;

export const FILTERS: Record<ReportFilter, object> = {
  open: { status: { $in: ['Nieuw', 'In behandeling'] } },
  closed: { status: { $in: ['Afgehandeld', 'Gewaarschuwd', 'Geband'] } },
  all: {},
};

/** A person in a report as shown: an account that is gone (or not known yet) as 'Voormalig lid'. */
function person(id: string, member: MemberDoc | undefined) {
  if (!member || member.deleted) return { id, ...FORMER_MEMBER };
  return { id, firstName: member.firstName, lastName: member.lastName };
}

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/** Reports as answered, with the names the members projection holds now (read by `_id`). */
export async function toReports(ctx: Pick<ModerationContext, 'members'>, docs: ReportDoc[]): Promise<Report[]> {
  const ids = [...new Set(docs.flatMap((d) => [d.reporterId, d.reportedId]))];
  const members = await ctx.members.byIds(ids);
  return docs.map((d) => ({
    id: d._id,
    createdAt: d.createdAt.toISOString(),
    reason: d.reason,
    status: d.status,
    reporter: person(d.reporterId, members.get(d.reporterId)),
    reported: person(d.reportedId, members.get(d.reportedId)),
    reportedListingID: d.reportedListingId,
    ...(d.category && { category: d.category }),
  }));
}

/**
 * Sets a report's status (one conditional update on the status it had) and keeps the open-report
 * claim in step: closed, the reporter may report that member again; reopened, it counts as the open
 * one unless another is. Resolves to the report as it is now, or null when there is none.
 */
export async function changeStatus(ctx: Pick<ModerationContext, 'reports' | 'openReports' | 'relay'>, id: string, status: ReportStatus, now: Date): Promise<ReportDoc | null> {
  for (;;) {
    const current = await ctx.reports.findOne({ _id: id });
    if (!current) return null;
    if (current.status === status) return current;
    // Closed now (from open): the reporter hears of it once, through the report's outbox in this
    // same write. Between two final statuses nothing is announced again.
    const resolved = isOpenReport(current.status) && !isOpenReport(status) ? resolvedEvent(current, status, now) : undefined;
    const done = await ctx.reports.updateOne(
      { _id: id, status: current.status },
      { $set: { status, updatedAt: now, ...(resolved && { resolutions: resolved.payload.version, ...outboxFields(resolved) }) } },
    );
    if (done.modifiedCount !== 1) continue; // changed meanwhile: decide again from what it is now
    if (resolved) ctx.relay.kick(ctx.reports.collectionName, id);
    const key = openKey(current.reporterId, current.reportedId);
    if (!isOpenReport(status)) await ctx.openReports.deleteOne({ _id: key, reportId: id });
    else if (!isOpenReport(current.status)) await ctx.openReports.insertOne({ _id: key, reportId: id }).catch(ignoreDuplicate);
    return { ...current, status, updatedAt: now, ...(resolved && { resolutions: resolved.payload.version }) };
  }
}

function resolvedEvent(report: ReportDoc, status: ReportStatus, at: Date) {
  return createEvent(eventRegistry, 'moderation.report.resolved', {
    reportId: report._id,
    reporterId: report.reporterId,
    status: status as ReportResolvedEvent['status'],
    version: (report.resolutions ?? 0) + 1,
    at: at.toISOString(),
  });
}

export function ignoreDuplicate(err: unknown) {
  if ((err as { code?: number }).code !== 11000) throw err;
}
