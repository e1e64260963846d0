import type { Role, SuspensionReason } from '@ruilplein/contracts';
import { collection, now as platformNow, type Connection, type IndexSpec } from '@ruilplein/service-kit';
import { Types, type mongo } from 'mongoose';

/** A single-use link token (activation, password reset): only its SHA-256 is stored. */
export interface LinkToken {
  tokenHash: string;
  expiresAt: Date;
}

export interface UserSuspension {
  reason: SuspensionReason;
  /** Absent: suspended until a moderator lifts it. */
  endsAt?: Date;
}

/**
 * The suspension as documents written before the rename hold it: read (accounts/suspension.ts)
 * until none is left, replaced by `suspension` whenever moderation changes the member's state.
 */
interface LegacySuspension {
  reason: SuspensionReason;
  unblockDate?: Date;
}

export interface UserDoc {
  _id: Types.ObjectId;
  firstName: string;
  lastName: string;
  /** Lowercased and trimmed; unique. */
  email: string;
  /** argon2id, PHC string. */
  passwordHash: string;
  city?: string;
  latitude?: number;
  longitude?: number;
  /** Server path of the avatar (`/uploads/avatars/...`); absent: the default avatar. */
  profilePicture?: string;
  activated: boolean;
  roles: Role[];
  subscriptionEndsAt?: Date;
  suspension?: UserSuspension;
  block?: LegacySuspension;
  /** Version of the moderation state the suspension came with (moderation/consumer.ts); older events are ignored. */
  moderationVersion?: number;
  /** Version of the payment service's membership last applied (membership/consumer.ts). */
  membershipVersion?: number;
  /** The Premium role came with a subscription (and goes when it ends), not from an admin or the seed. */
  premiumFromSubscription?: boolean;
  activation?: LinkToken;
  passwordReset?: LinkToken;
  /**
   * Highest token version handed out or revoked; Redis (`tokenVersionKey`) is what the gateway
   * reads, this copy restores it should Redis lose its data (tokens.ts).
   */
  tokenVersion: number;
  /** Counts the changes announced as `auth.user.*` events (events.ts); absent before the first. */
  version?: number;
  /** Last login or verified session; the inactivity job deletes accounts idle for 24 months. */
  lastActiveAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export const userCollection = (db: Connection) => collection<UserDoc>(db, 'users');
export type UserCollection = mongo.Collection<UserDoc>;

/** Created at start, before the first registration: the unique e-mail decides between two at once. */
export const USER_INDEXES: readonly IndexSpec[] = [{ key: { email: 1 }, unique: true }];

/** A user id as stored: auth's ids are ObjectIds, callers hold their hex (a token's `sub`, a route's id). */
export const userIdOf = (id: string | Types.ObjectId): Types.ObjectId => (typeof id === 'string' ? new Types.ObjectId(id) : id);

/**
 * A change of a user with `updatedAt` set to now: every write but the moderation and deletion
 * marks stamps it, as the mongoose schema's timestamps did, because conditional writes
 * (profile, admin activation) match on it.
 */
export function stamped<U extends mongo.UpdateFilter<UserDoc>>(update: U, now = platformNow()): U {
  return { ...update, $set: { ...update.$set, updatedAt: now } };
}

/**
 * Stores a new user with what the mongoose schema's defaults gave one (not activated, a plain
 * member, token version 0, active and created now), fields left undefined left out: for tests that
 * put members straight into the store.
 */
export async function insertUser(users: UserCollection, fields: Pick<UserDoc, 'firstName' | 'lastName' | 'email' | 'passwordHash'> & Partial<UserDoc>, now = platformNow()): Promise<UserDoc> {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const user: UserDoc = { _id: new Types.ObjectId(), activated: false, roles: ['Gebruiker'], tokenVersion: 0, lastActiveAt: now, createdAt: now, updatedAt: now, ...(given as typeof fields) };
  await users.insertOne(user);
  return user;
}

/**
 * Users whose deletion has not begun (cleanup/deletion.ts claims a user with a `deletion` field
 * outside the schema); every query that must not see a member being deleted adds it.
 */
export const NOT_BEING_DELETED = { deletion: { $exists: false } } as const;
