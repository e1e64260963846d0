import { ROLES, type Role } from '@ruilplein/contracts';
import { outboxField, type Connection } from '@ruilplein/service-kit';
import { Schema, type HydratedDocument, type Types } from 'mongoose';

/** A single-use link token (activation, password reset): only its SHA-256 is stored. */
export interface LinkToken {
  tokenHash: string;
  expiresAt: Date;
}

export interface UserBlock {
  reason: 'ban' | 'warnings';
  /** Absent: blocked until an admin lifts it. */
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
  block?: UserBlock;
  /** Version of the moderation state the block came with (moderation/consumer.ts); older events are ignored. */
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

const linkToken = new Schema<LinkToken>({ tokenHash: { type: String, required: true }, expiresAt: { type: Date, required: true } }, { _id: false });

const schema = new Schema<UserDoc>(
  {
    firstName: { type: String, required: true },
    lastName: { type: String, required: true },
    email: { type: String, required: true, lowercase: true, trim: true, unique: true },
    passwordHash: { type: String, required: true },
    city: String,
    latitude: Number,
    longitude: Number,
    profilePicture: String,
    activated: { type: Boolean, required: true, default: false },
    roles: { type: [{ type: String, enum: ROLES }], default: () => ['Gebruiker'] },
    subscriptionEndsAt: Date,
    block: {
      type: new Schema<UserBlock>({ reason: { type: String, enum: ['ban', 'warnings'], required: true }, unblockDate: Date }, { _id: false }),
      default: undefined,
    },
    activation: { type: linkToken, default: undefined },
    passwordReset: { type: linkToken, default: undefined },
    tokenVersion: { type: Number, required: true, default: 0 },
    moderationVersion: Number,
    membershipVersion: Number,
    premiumFromSubscription: Boolean,
    version: Number,
    lastActiveAt: { type: Date, required: true, default: () => new Date() },
    ...outboxField,
  },
  { versionKey: false, timestamps: true },
);

export const userModel = (db: Connection) => db.model<UserDoc>('User', schema, 'users');
export type UserModel = ReturnType<typeof userModel>;
export type UserDocument = HydratedDocument<UserDoc>;
