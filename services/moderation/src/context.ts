import type { ReportCategory, ReportStatus, SuspensionReason } from '@ruilplein/contracts';
import { collection, memberProjection, type Connection, type Logger, type Member, type MemberProjection, type OutboxEntry, type OutboxRelay } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/** The outbox fields the relay reads (service-kit outbox.ts), on every document that announces. */
export interface WithOutbox {
  outbox?: Record<string, OutboxEntry>;
  outboxPending?: true;
}

/**
 * A member as moderation knows them: the kit's projection of auth's `auth.user.*` events (names for
 * the reports, who is an admin, who exists). `counted`: included in the dashboard's user total,
 * flipped by one conditional update together with the total (members/consumer.ts).
 */
export type MemberDoc = Member<MemberField> & { counted?: boolean };
type MemberField = 'firstName' | 'lastName' | 'roles' | 'activated';

/** A listing as moderation knows it: whose it is and whether it is active (the dashboard's count). */
export interface ListingDoc {
  _id: string;
  version: number;
  ownerId: string;
  active: boolean;
  deleted?: boolean;
  counted?: boolean;
}

/** The dashboard's totals, kept by `$inc` as projected states flip. */
export interface TotalsDoc {
  _id: 'totals';
  totalUsers: number;
  activeListings: number;
}

export interface ReportDoc extends WithOutbox {
  _id: string;
  reporterId: string;
  reportedId: string;
  reportedListingId: string | null;
  reason: string;
  /** Chosen in the report dialog; absent without one. */
  category?: ReportCategory;
  status: ReportStatus;
  createdAt: Date;
  updatedAt: Date;
  /** Times it was closed (`moderation.report.resolved`'s version); absent until the first. */
  resolutions?: number;
}

/** One open report per reporter and reported member: `_id` `<reporter>:<reported>`, the report it belongs to. */
export interface OpenReportDoc {
  _id: string;
  reportId: string;
}

export interface WarningDoc {
  _id: string;
  userId: string;
  adminId: string;
  message: string;
  reportId?: string;
  createdAt: Date;
}

export interface BanDoc {
  _id: string;
  userId: string;
  issuedBy: string;
  reason: string;
  expiresAt: Date | null;
  reportId?: string;
  createdAt: Date;
  /** An admin lifted the suspension it started (or a later one) at this moment (issue 27). */
  liftedAt?: Date;
  liftedBy?: string;
}

/**
 * A member's moderation state, the aggregate the `moderation.user.*` events are about: its recent
 * warnings (those inside the automatic suspension's window) and the suspension in force. Every change is one
 * conditional update on `version`, with its events in the same write.
 */
export interface MemberStateDoc extends WithOutbox {
  _id: string;
  version: number;
  warnings: { id: string; at: Date }[];
  suspension?: MemberSuspension;
  /** The suspension as states written before the rename hold it: read until a change rewrites the state. */
  block?: MemberSuspension;
}

export interface MemberSuspension {
  reason: SuspensionReason;
  until: Date | null;
  since: Date;
}

/** The automatic suspension (decisions.md "Moderation"): `warnings` within `windowMs` suspend for `lengthMs`. */
export interface AutoSuspensionRule {
  warnings: number;
  windowMs: number;
  lengthMs: number;
}

export const COLLECTIONS = {
  members: 'members',
  listings: 'listings',
  totals: 'totals',
  reports: 'reports',
  openReports: 'open_reports',
  warnings: 'warnings',
  bans: 'bans',
  states: 'member_states',
} as const;

export interface ModerationContext {
  members: MemberProjection<MemberField>;
  listings: mongo.Collection<ListingDoc>;
  totals: mongo.Collection<TotalsDoc>;
  reports: mongo.Collection<ReportDoc>;
  openReports: mongo.Collection<OpenReportDoc>;
  warnings: mongo.Collection<WarningDoc>;
  bans: mongo.Collection<BanDoc>;
  states: mongo.Collection<MemberStateDoc>;
  relay: Pick<OutboxRelay, 'kick'>;
  autoSuspension: AutoSuspensionRule;
  logger: Logger;
}

export function moderationCollections(db: Connection) {
  return {
    members: memberProjection(db, { fields: ['firstName', 'lastName', 'roles', 'activated'], collection: COLLECTIONS.members }),
    listings: collection<ListingDoc>(db, COLLECTIONS.listings),
    totals: collection<TotalsDoc>(db, COLLECTIONS.totals),
    reports: collection<ReportDoc>(db, COLLECTIONS.reports),
    openReports: collection<OpenReportDoc>(db, COLLECTIONS.openReports),
    warnings: collection<WarningDoc>(db, COLLECTIONS.warnings),
    bans: collection<BanDoc>(db, COLLECTIONS.bans),
    states: collection<MemberStateDoc>(db, COLLECTIONS.states),
  };
}

/**
 * Brings a projected entity's `counted` flag in line with `wanted`, and the total with it: the flag
 * flips by one conditional update, so of two handlers (or a redelivery) only one moves the total.
 */
export async function recount<T extends { _id: string; counted?: boolean }>(
  ctx: Pick<ModerationContext, 'totals'>,
  collection: mongo.Collection<T>,
  id: string,
  wanted: boolean,
  total: 'totalUsers' | 'activeListings',
): Promise<void> {
  const flipped = await collection.updateOne({ _id: id, counted: wanted ? { $ne: true } : true } as mongo.Filter<T>, { $set: { counted: wanted } as Partial<T> });
  if (flipped.modifiedCount === 1) await ctx.totals.updateOne({ _id: 'totals' }, { $inc: { [total]: wanted ? 1 : -1 } }, { upsert: true });
}
