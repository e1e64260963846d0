// The moderation service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { isCleanText, TEXT_MESSAGES } from '../text.ts';
import { moderationRefs } from './refs.ts';
import {
  BAN_REASON_MAX_LENGTH,
  MODERATION_MESSAGES,
  REPORT_CATEGORIES,
  REPORT_FILTERS,
  REPORT_PAGE_SIZE,
  REPORT_REASON_MAX_LENGTH,
  REPORT_STATUSES,
  SUSPENSION_LOOKUP_MAX,
  WARNING_MESSAGE_MAX_LENGTH,
} from './rules.ts';
import { SUSPENSION_REASONS } from '../auth/suspensions.ts';

const hexId = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[0-9a-f]{24}$/i, message)
    .toLowerCase();
const memberId = hexId(MODERATION_MESSAGES.invalidMember);
/** Absent, null or '' (the seed's dialog sends what it has): no listing. */
const optionalListingId = z
  .union([z.literal(''), z.null(), hexId(MODERATION_MESSAGES.invalidListing)])
  .optional()
  .transform((id) => id || undefined);
const optionalReportId = z
  .union([z.literal(''), z.null(), hexId(MODERATION_MESSAGES.invalidReport)])
  .optional()
  .transform((id) => id || undefined);
/** Reports, warnings and ban reasons are written in a text area: line breaks are fine. */
const text = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong).refine(isCleanText, TEXT_MESSAGES.forbiddenCharacters);

/** A day ('2026-12-01': the suspension ends when that day starts in the Netherlands) or a moment; null or '' for none. */
const optionalEnd = z
  .union([z.literal(''), z.null(), z.iso.date({ error: MODERATION_MESSAGES.invalidDate }), z.iso.datetime({ offset: true, error: MODERATION_MESSAGES.invalidDate })], {
    error: MODERATION_MESSAGES.invalidDate,
  })
  .optional()
  .transform((value) => value || undefined);

export const ReportPersonSchema = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).meta({ id: 'ReportPerson' });

export const ReportSchema = z
  .object({
    id: z.string(),
    createdAt: z.iso.datetime(),
    reason: z.string(),
    status: z.enum(REPORT_STATUSES),
    reporter: ReportPersonSchema,
    reported: ReportPersonSchema,
    reportedListingID: z.string().nullable(),
    /** Absent for a report made without one. */
    category: z.enum(REPORT_CATEGORIES).optional(),
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof ReportSchema>;

export const CreateReportSchema = z
  .object({
    /** The caller (the kit refuses another id); optional, as the token says who reports. */
    reporterID: memberId.optional(),
    reportedID: memberId,
    reportedListingID: optionalListingId,
    reason: text(MODERATION_MESSAGES.reasonRequired, REPORT_REASON_MAX_LENGTH, MODERATION_MESSAGES.reasonTooLong),
    /** Absent, null or '': none. */
    category: z
      .union([z.literal(''), z.null(), z.enum(REPORT_CATEGORIES, { error: MODERATION_MESSAGES.invalidCategory })], { error: MODERATION_MESSAGES.invalidCategory })
      .optional()
      .transform((c) => c || undefined),
  })
  .meta({ id: 'CreateReportRequest' });
export type CreateReportRequest = z.input<typeof CreateReportSchema>;

export const ReportListQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(REPORT_PAGE_SIZE).default(REPORT_PAGE_SIZE),
  /** Openstaand, Afgehandeld or Alles (the default). */
  status: z.enum(REPORT_FILTERS).default('all'),
});

export const WarningSchema = z
  .object({ id: z.string(), userID: z.string(), adminID: z.string(), message: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'Warning' });
export type Warning = z.infer<typeof WarningSchema>;

export const CreateWarningSchema = z
  .object({
    userID: memberId,
    adminID: memberId.optional(),
    message: text(MODERATION_MESSAGES.messageRequired, WARNING_MESSAGE_MAX_LENGTH, MODERATION_MESSAGES.messageTooLong),
    /** Taken from this report: its status becomes Gewaarschuwd. */
    reportID: optionalReportId,
  })
  .meta({ id: 'CreateWarningRequest' });
export type CreateWarningRequest = z.input<typeof CreateWarningSchema>;

export const BanSchema = z
  .object({ id: z.string(), userID: z.string(), issuedBy: z.string(), reason: z.string(), expiresAt: z.iso.datetime().nullable(), createdAt: z.iso.datetime() })
  .meta({ id: 'Ban' });
export type Ban = z.infer<typeof BanSchema>;

export const CreateBanSchema = z
  .object({
    userID: memberId,
    issuedBy: memberId.optional(),
    reason: text(MODERATION_MESSAGES.banReasonRequired, BAN_REASON_MAX_LENGTH, MODERATION_MESSAGES.reasonTooLong),
    /** Absent or null: permanent. */
    expiresAt: optionalEnd,
    /** Taken from this report: its status becomes Geband. */
    reportID: optionalReportId,
  })
  .meta({ id: 'CreateBanRequest' });
export type CreateBanRequest = z.input<typeof CreateBanSchema>;

export const AdminStatsSchema = z
  .object({
    totalUsers: z.number().int().min(0),
    activeListings: z.number().int().min(0),
    openReports: z.number().int().min(0),
    latestReports: z.array(z.object({ id: z.string(), reporterName: z.string(), reportedName: z.string(), reason: z.string(), createdAt: z.iso.datetime() })),
  })
  .meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof AdminStatsSchema>;

/** A member's suspension in force, as the admin's user list shows it. */
export const MemberSuspensionSchema = z
  .object({
    userID: z.string(),
    reason: z.enum(SUSPENSION_REASONS),
    since: z.iso.datetime(),
    /** When it ends; null: until an admin lifts it. */
    endsAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'MemberSuspension' });

/** `ids`: the members on the list's page, comma-separated; the answer holds those of them suspended now. */
export const SuspensionListQuerySchema = z.object({
  ids: z
    .string({ error: MODERATION_MESSAGES.invalidMembers })
    .transform((ids) => ids.split(',').map((id) => id.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[0-9a-f]{24}$/, MODERATION_MESSAGES.invalidMembers), { error: MODERATION_MESSAGES.invalidMembers }).max(SUSPENSION_LOOKUP_MAX, MODERATION_MESSAGES.invalidMembers)),
});

export const SuspensionLiftedSchema = z
  .object({ userID: z.string(), liftedAt: z.iso.datetime(), message: z.string() })
  .meta({ id: 'SuspensionLifted' });

const ReportIdParamsSchema = z.object({ id: hexId(MODERATION_MESSAGES.invalidReport) });

export const moderationRoutes = {
  createReport: defineRoute({
    ...moderationRefs.createReport,
    summary: 'Een andere gebruiker melden (eventueel met de listing); één open melding per melder en gemelde',
    body: CreateReportSchema,
    response: ReportSchema,
    status: 201,
  }),
  listReports: defineRoute({
    ...moderationRefs.listReports,
    summary: 'Meldingen, nieuwste eerst, met namen van melder en gemelde (beheer)',
    query: ReportListQuerySchema,
    response: z.array(ReportSchema),
  }),
  setReportStatus: defineRoute({
    ...moderationRefs.setReportStatus,
    summary: 'De status van een melding zetten; body: de status als kale JSON-string (beheer)',
    params: ReportIdParamsSchema,
    body: z.enum(REPORT_STATUSES, { error: MODERATION_MESSAGES.invalidStatus }),
    response: ReportSchema,
  }),
  createWarning: defineRoute({
    ...moderationRefs.createWarning,
    summary: 'Een gebruiker waarschuwen; te veel waarschuwingen kort na elkaar blokkeren automatisch (beheer)',
    body: CreateWarningSchema,
    response: WarningSchema,
    status: 201,
  }),
  createBan: defineRoute({
    ...moderationRefs.createBan,
    summary: 'Een gebruiker bannen, tot een datum of permanent; trekt alle tokens in (beheer)',
    body: CreateBanSchema,
    response: BanSchema,
    status: 201,
  }),
  listSuspensions: defineRoute({
    ...moderationRefs.listSuspensions,
    summary: 'De blokkeringen die nu gelden van de genoemde gebruikers (ids, komma-gescheiden, hoogstens 100), met reden en einde (beheer)',
    query: SuspensionListQuerySchema,
    response: z.array(MemberSuspensionSchema),
  }),
  liftSuspension: defineRoute({
    ...moderationRefs.liftSuspension,
    summary: 'Een blokkering opheffen (ban of automatisch): de gebruiker kan meteen weer alles; listings en geannuleerde ruilaanbiedingen blijven zoals ze zijn (beheer)',
    params: z.object({ userId: memberId }),
    response: SuspensionLiftedSchema,
  }),
  stats: defineRoute({
    ...moderationRefs.stats,
    summary: 'Aantallen gebruikers, actieve listings en open meldingen, en de laatste meldingen (beheer)',
    response: AdminStatsSchema,
  }),
} satisfies Record<keyof typeof moderationRefs, RouteDef>;
