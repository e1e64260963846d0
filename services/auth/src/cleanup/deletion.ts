import { eventRegistry } from '@ruilplein/contracts';
import { now as platformNow, collection, createEvent, outboxFields, type Connection, type OutboxRelay } from '@ruilplein/service-kit';
import { Types, type mongo } from 'mongoose';
import { NOT_BEING_DELETED, userIdOf, type UserCollection } from '../accounts/model.ts';
import type { RefreshCollection } from '../accounts/refresh.ts';
import { revokeTokens, type Redis } from '../accounts/tokens.ts';
import type { AvatarStore } from '../avatars/store.ts';
import { removeBlocksOf, type BlockCollection } from '../blocks/model.ts';
import type { UserStatsCollection } from '../users/stats.ts';

export type DeletionReason = 'admin' | 'inactive';

/** Marks a user whose deletion has begun; set in one conditional write, so only one caller wins. */
interface DeletionClaim {
  eventId: string;
  at: Date;
  reason: DeletionReason;
  /** The admin who deleted the account. */
  by?: string;
}

/**
 * One record per deleted account: no personal data, only who went when and why. It carries the
 * outbox of `auth.user.deleted`, which cannot live in a user document that is about to disappear.
 */
export interface DeletionDoc {
  /** The deleted user's id. */
  _id: string;
  deletedAt: Date;
  reason: DeletionReason;
  by?: string;
}

export const deletionCollection = (db: Connection) => collection<DeletionDoc>(db, 'account_deletions');
export type DeletionCollection = mongo.Collection<DeletionDoc>;

export interface DeletionDeps {
  users: UserCollection;
  deletions: DeletionCollection;
  redis: Redis;
  relay: Pick<OutboxRelay, 'kick'>;
  /** What else the account leaves in this service: its pictures, its stats record, its logins. */
  avatars: Pick<AvatarStore, 'removeAllOf'>;
  stats: UserStatsCollection;
  refreshTokens: Pick<RefreshCollection, 'deleteMany'>;
  /** The members it blocked and the lists it is on (the followers drop theirs on `auth.user.deleted`). */
  blocks: BlockCollection;
}

/** The users as this file sees them: only the claim, which is not part of UserDoc (accounts/model.ts must not import this file). */
const raw = (users: UserCollection) => users.db.collection<{ _id: Types.ObjectId; deletion?: DeletionClaim }>(users.collectionName);

/**
 * Begins deleting the user if it still matches `filter` (for example "inactive since"): one
 * conditional write, so of two replicas or two admins racing only one gets the claim.
 */
export async function claimDeletion(
  users: UserCollection,
  userId: string,
  claim: Omit<DeletionClaim, 'eventId' | 'at'>,
  filter: Record<string, unknown> = {},
  now = platformNow(),
): Promise<DeletionClaim | undefined> {
  const full: DeletionClaim = { ...claim, eventId: crypto.randomUUID(), at: now };
  const result = await raw(users).updateOne({ ...filter, _id: new Types.ObjectId(userId), ...NOT_BEING_DELETED }, { $set: { deletion: full } });
  return result.modifiedCount === 1 ? full : undefined;
}

/**
 * Finishes a claimed deletion: revoke the tokens, queue `auth.user.deleted` (its id fixed by the
 * claim, so a repeat queues the same event and JetStream drops the copy), remove the user, its
 * pictures and its stats.
 * Every step may run twice: a crash anywhere is finished by the next `resumeDeletions`.
 */
export async function completeDeletion(deps: DeletionDeps, userId: string, claim: DeletionClaim): Promise<void> {
  await revokeTokens(deps.redis, userId);
  // The last version announced plus one; once the user is gone the deletion record exists already.
  const last = await deps.users.findOne({ _id: userIdOf(userId) }, { projection: { version: 1 } });
  const version = (last?.version ?? 0) + 1;
  const event = { ...createEvent(eventRegistry, 'auth.user.deleted', { id: userId, version }), id: claim.eventId, occurredAt: claim.at.toISOString() };
  await deps.deletions.updateOne(
    { _id: userId },
    { $setOnInsert: { deletedAt: claim.at, reason: claim.reason, ...(claim.by && { by: claim.by }), ...outboxFields(event) } },
    { upsert: true },
  );
  await raw(deps.users).deleteOne({ _id: new Types.ObjectId(userId), 'deletion.eventId': claim.eventId });
  await deps.avatars.removeAllOf(userId);
  await deps.stats.deleteOne({ _id: userId });
  // Already refused by the raised token version; removed so no login of the account is left.
  await deps.refreshTokens.deleteMany({ userId });
  await removeBlocksOf(deps.blocks, userId);
  deps.relay.kick();
}

/** The claim of a user whose deletion began but did not finish (a crash, Redis down). */
export async function pendingClaim(users: UserCollection, userId: string): Promise<DeletionClaim | undefined> {
  const doc = await raw(users).findOne({ _id: new Types.ObjectId(userId), deletion: { $exists: true } }, { projection: { deletion: 1 } });
  return doc?.deletion;
}

/** Finishes deletions claimed before `before` that never completed; returns how many. */
export async function resumeDeletions(deps: DeletionDeps, before: Date): Promise<number> {
  const stuck = await raw(deps.users)
    .find({ 'deletion.at': { $lt: before } }, { projection: { deletion: 1 } })
    .limit(100)
    .toArray();
  for (const doc of stuck) await completeDeletion(deps, doc._id.toString(), doc.deletion!);
  return stuck.length;
}
