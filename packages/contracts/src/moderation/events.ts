// What the moderation service announces on NATS (`moderation.>`): payload schemas of their own, each
// about one member with the version of that member's moderation state (one higher per change), so
// auth, listing and trade apply a suspension or its end only when newer.
import { z } from 'zod';
import { SUSPENSION_REASONS, type SuspensionReason } from '../auth/suspensions.ts';
import { defineEvents } from '../events.ts';
import type { ReportStatus } from './rules.ts';

/**
 * A member is suspended: banned by a moderator (`reason: 'ban'`) or suspended automatically after
 * too many warnings (`'warnings'`), until `endsAt` (null: until it is lifted). One subject for both,
 * so a consumer cannot miss a kind; the reason uses the vocabulary of the answer and the token.
 */
export const MemberSuspendedEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  reason: z.enum(SUSPENSION_REASONS),
  /** ISO date the suspension ends; null: until it is lifted. */
  endsAt: z.iso.datetime().nullable(),
  at: z.iso.datetime(),
});
export type MemberSuspendedEvent = z.infer<typeof MemberSuspendedEventSchema>;

export const MemberWarnedEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  warningId: z.string(),
  /** Warnings within the automatic suspension's window, this one included. */
  recentWarnings: z.number().int().positive(),
  /** The warning's text, as the admin wrote it (for the member's notification); absent in events from before it. */
  reason: z.string().optional(),
  at: z.iso.datetime(),
});
export type MemberWarnedEvent = z.infer<typeof MemberWarnedEventSchema>;

/** Why a suspension ended: its date passed, or an admin lifted it. */
const SUSPENSION_END_CAUSES = ['expired', 'lifted'] as const;

/**
 * The suspension ended (its date passed) or was lifted by an admin (issue 27): one subject for
 * both, so auth, listing and trade follow a lift on the durables and subjects they already read.
 * `cause` is absent in events from before the lift existed (those are all `expired`).
 */
export const MemberSuspensionEndedEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  cause: z.enum(SUSPENSION_END_CAUSES).optional(),
  at: z.iso.datetime(),
});
export type MemberSuspensionEndedEvent = z.infer<typeof MemberSuspensionEndedEventSchema>;

/** The statuses that close a report (what `moderation.report.resolved` may carry). */
export const FINAL_REPORT_STATUSES = ['Afgehandeld', 'Gewaarschuwd', 'Geband'] as const satisfies readonly ReportStatus[];

/**
 * An admin closed a report (set it to a final status, also by warning or banning from it): for the
 * reporter's notification. Published once per closing, in the same write as the status: `version`
 * counts the report's closings (1 the first time; a report reopened and closed again is 2).
 */
export const ReportResolvedEventSchema = z.object({
  reportId: z.string(),
  reporterId: z.string(),
  status: z.enum(FINAL_REPORT_STATUSES),
  version: z.number().int().positive(),
  at: z.iso.datetime(),
});
export type ReportResolvedEvent = z.infer<typeof ReportResolvedEventSchema>;

export const moderationEvents = defineEvents('moderation', {
  'moderation.user.suspended': MemberSuspendedEventSchema,
  'moderation.user.warned': MemberWarnedEventSchema,
  'moderation.user.suspension-ended': MemberSuspensionEndedEventSchema,
  'moderation.report.resolved': ReportResolvedEventSchema,
});

/**
 * The subjects and payloads moderation published before the sanction was called suspension. Nothing
 * publishes them any more (they are not in the registry); consumers still accept them while events
 * of the old moderation service may sit in the stream or arrive during a rolling deploy. Remove
 * them, with LEGACY in SUSPENSION_SUBJECTS, once the moderation stream holds none (its max age).
 */
const LegacySuspendedSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  reason: z.enum(SUSPENSION_REASONS),
  unblockDate: z.iso.datetime().nullable(),
  at: z.iso.datetime(),
});
export const legacySuspensionEvents = defineEvents('moderation', {
  'moderation.user.banned': LegacySuspendedSchema,
  'moderation.user.blocked': LegacySuspendedSchema,
  'moderation.user.unblocked': MemberSuspensionEndedEventSchema,
});

/** Every subject that starts or ends a suspension, the old names included: what consumers subscribe to. */
export const SUSPENSION_SUBJECTS = ['moderation.user.suspended', 'moderation.user.suspension-ended', ...(Object.keys(legacySuspensionEvents) as (keyof typeof legacySuspensionEvents)[])] as const;

/** What a consumer reads: the registry's events and the old subjects. */
export const suspensionEventRegistry = { ...moderationEvents, ...legacySuspensionEvents };

/** A member's suspension after a change: in force (reason, end) or none. */
export interface SuspensionChange {
  userId: string;
  version: number;
  /** null: the suspension ended or was lifted. */
  suspension: { reason: SuspensionReason; endsAt: string | null } | null;
}

type SuspensionEvent = {
  [S in (typeof SUSPENSION_SUBJECTS)[number]]: { type: S; payload: z.output<(typeof suspensionEventRegistry)[S]> };
}[(typeof SUSPENSION_SUBJECTS)[number]];

/** Any version of a suspension event as one shape, so consumers handle old and new alike. */
export function suspensionChangeOf(event: SuspensionEvent): SuspensionChange {
  const { userId, version } = event.payload;
  switch (event.type) {
    case 'moderation.user.suspended':
      return { userId, version, suspension: { reason: event.payload.reason, endsAt: event.payload.endsAt } };
    case 'moderation.user.banned':
    case 'moderation.user.blocked':
      return { userId, version, suspension: { reason: event.payload.reason, endsAt: event.payload.unblockDate } };
    case 'moderation.user.suspension-ended':
    case 'moderation.user.unblocked':
      return { userId, version, suspension: null };
  }
}
