import type { ReportStatus, Role } from '@ruilplein/contracts';
import type { Connection, Logger, OutboxEntry, OutboxRelay } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/** The outbox fields the relay reads (service-kit outbox.ts), on every document that announces. */
export interface WithOutbox {
  outbox?: Record<string, OutboxEntry>;
  outboxPending?: true;
}

/**
 * A member as moderation knows them: the projection of auth's `auth.user.*` events (names for the
 * reports, who is an admin, who exists). `counted`: included in the dashboard's user total, flipped
 * by one conditional update together with the total (members/consumer.ts).
 */
export interface MemberDoc {
  _id: string;
  version: number;
  firstName: string;
  lastName: string;
  roles: Role[];
  activated: boolean;
  deleted?: boolean;
  counted?: boolean;
}

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

export interface ReportDoc {
  _id: string;
  reporterId: string;
  reportedId: string;
  reportedListingId: string | null;
  reason: string;
  status: ReportStatus;
  createdAt: Date;
  updatedAt: Date;
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
}

/**
 * A member's moderation state, the aggregate the `moderation.user.*` events are about: its recent
 * warnings (those inside the automatic block's window) and the block in force. Every change is one
 * conditional update on `version`, with its events in the same write.
 */
export interface MemberStateDoc extends WithOutbox {
  _id: string;
  version: number;
  warnings: { id: string; at: Date }[];
  block?: { reason: 'ban' | 'warnings'; until: Date | null; since: Date };
}

/** The automatic block (decisions.md "Moderation"): `warnings` within `windowMs` block for `blockMs`. */
export interface AutoBlockRule {
  warnings: number;
  windowMs: number;
  blockMs: number;
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
  members: mongo.Collection<MemberDoc>;
  listings: mongo.Collection<ListingDoc>;
  totals: mongo.Collection<TotalsDoc>;
  reports: mongo.Collection<ReportDoc>;
  openReports: mongo.Collection<OpenReportDoc>;
  warnings: mongo.Collection<WarningDoc>;
  bans: mongo.Collection<BanDoc>;
  states: mongo.Collection<MemberStateDoc>;
  relay: Pick<OutboxRelay, 'kick'>;
  autoBlock: AutoBlockRule;
  logger: Logger;
}

export function moderationCollections(db: Connection) {
  const c = <T extends mongo.BSON.Document>(name: string) => db.collection<T>(name) as unknown as mongo.Collection<T>;
  return {
    members: c<MemberDoc>(COLLECTIONS.members),
    listings: c<ListingDoc>(COLLECTIONS.listings),
    totals: c<TotalsDoc>(COLLECTIONS.totals),
    reports: c<ReportDoc>(COLLECTIONS.reports),
    openReports: c<OpenReportDoc>(COLLECTIONS.openReports),
    warnings: c<WarningDoc>(COLLECTIONS.warnings),
    bans: c<BanDoc>(COLLECTIONS.bans),
    states: c<MemberStateDoc>(COLLECTIONS.states),
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
