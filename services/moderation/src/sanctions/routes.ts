import { hasAdminRole, MODERATION_MESSAGES, type ReportStatus } from '@ruilplein/contracts';
import { badRequest, conflict, notFound, now, type HandlerPart } from '@ruilplein/service-kit';
import type { BanDoc, ModerationContext, WarningDoc } from '../context.ts';
import { changeStatus, newId } from '../reports/model.ts';
import { ban, inForce, lift, warn } from './state.ts';

/** Midnight at the start of `day` (YYYY-MM-DD) in the Netherlands: a ban 'until 1 December' ends as that day begins there. */
export function startOfDutchDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utc = Date.UTC(y, m - 1, d);
  // The zone's offset at that moment (CET or CEST), from what Amsterdam's clock reads then.
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Amsterdam', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(new Date(utc))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  return new Date(utc - (local - utc));
}

/** Warnings and bans (spec 2 §3, §4): admins only; the issuing admin is the caller. */
export function sanctionHandlers(ctx: ModerationContext) {
  /** The member an admin acts on: known, and not an admin themselves. */
  const target = async (userId: string) => {
    const member = await ctx.members.byId(userId);
    if (!member || member.deleted) throw notFound(MODERATION_MESSAGES.memberNotFound);
    if (hasAdminRole(member)) throw badRequest(MODERATION_MESSAGES.notAdmins);
  };
  /** The report the action is taken from: it must be about this member. */
  const reportFor = async (reportId: string | undefined, userId: string) => {
    if (!reportId) return;
    const report = await ctx.reports.findOne({ _id: reportId }, { projection: { reportedId: 1 } });
    if (!report) throw notFound(MODERATION_MESSAGES.reportNotFound);
    if (report.reportedId !== userId) throw badRequest(MODERATION_MESSAGES.reportNotAbout);
  };
  const follow = async (reportId: string | undefined, status: ReportStatus, at: Date) => {
    if (reportId) await changeStatus(ctx, reportId, status, at);
  };
  return {
    moderation: {
      createWarning: async ({ principal, body }) => {
        await target(body.userID);
        await reportFor(body.reportID, body.userID);
        const at = now();
        const doc: WarningDoc = { _id: newId(), userId: body.userID, adminId: principal.userId.toLowerCase(), message: body.message, ...(body.reportID && { reportId: body.reportID }), createdAt: at };
        await ctx.warnings.insertOne(doc);
        await warn(ctx, doc.userId, doc._id, doc.message, at);
        await follow(body.reportID, 'Gewaarschuwd', at);
        return { id: doc._id, userID: doc.userId, adminID: doc.adminId, message: doc.message, createdAt: at.toISOString() };
      },
      createBan: async ({ principal, body }) => {
        await target(body.userID);
        await reportFor(body.reportID, body.userID);
        const at = now();
        const until = body.expiresAt === undefined ? null : /^\d{4}-\d{2}-\d{2}$/.test(body.expiresAt) ? startOfDutchDay(body.expiresAt) : new Date(body.expiresAt);
        if (until && until <= at) throw badRequest(MODERATION_MESSAGES.dateInPast);
        const doc: BanDoc = { _id: newId(), userId: body.userID, issuedBy: principal.userId.toLowerCase(), reason: body.reason, expiresAt: until, ...(body.reportID && { reportId: body.reportID }), createdAt: at };
        await ctx.bans.insertOne(doc);
        await ban(ctx, doc.userId, until, at);
        await follow(body.reportID, 'Geband', at);
        return { id: doc._id, userID: doc.userId, issuedBy: doc.issuedBy, reason: doc.reason, expiresAt: until?.toISOString() ?? null, createdAt: at.toISOString() };
      },
      // The suspensions in force of the members on the admin's page: read by `_id` from the states.
      listSuspensions: async ({ query }) => {
        if (query.ids.length === 0) return [];
        const at = now();
        const states = await ctx.states.find({ _id: { $in: query.ids } }).toArray();
        return states.flatMap((state) => {
          const suspension = state.suspension ?? state.block;
          if (!inForce(suspension, at)) return [];
          return [{ userID: state._id, reason: suspension.reason, since: suspension.since.toISOString(), endsAt: suspension.until?.toISOString() ?? null }];
        });
      },
      liftSuspension: async ({ principal, params }) => {
        const member = await ctx.members.byId(params.userId);
        if (!member || member.deleted) throw notFound(MODERATION_MESSAGES.memberNotFound);
        const at = now();
        if (!(await lift(ctx, params.userId, at))) throw conflict(MODERATION_MESSAGES.notSuspended);
        // The bans stay on record, with who lifted them and when.
        await ctx.bans.updateMany({ userId: params.userId, liftedAt: { $exists: false } }, { $set: { liftedAt: at, liftedBy: principal.userId.toLowerCase() } });
        return { userID: params.userId, liftedAt: at.toISOString(), message: MODERATION_MESSAGES.lifted };
      },
    },
  } satisfies HandlerPart<'moderation'>;
}
