import { ADMIN_ROLES, ROLES, type Role } from '@ruilplein/contracts';
import type { Connection } from '@ruilplein/service-kit';
import { Schema } from 'mongoose';
import { now as platformNow } from '@ruilplein/service-kit';

/**
 * What the listing service knows of a member: the projection of auth's `auth.user.*` events
 * (members/consumer.ts), applied only when newer (`version`). It decides premium rights, the
 * caller's place for distances and the owner shown on a listing; never the request.
 */
export interface MemberDoc {
  /** auth's user id. */
  _id: string;
  version: number;
  firstName: string;
  lastName: string;
  city?: string;
  latitude?: number;
  longitude?: number;
  roles: Role[];
  subscriptionEndsAt?: Date;
  activated: boolean;
  /** The account is gone: a tombstone (no personal data) that ignores any older event. */
  deleted?: boolean;
}

const schema = new Schema<MemberDoc>(
  {
    _id: { type: String, required: true },
    version: { type: Number, required: true },
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    city: String,
    latitude: Number,
    longitude: Number,
    roles: { type: [{ type: String, enum: ROLES }], default: () => [] },
    subscriptionEndsAt: Date,
    activated: { type: Boolean, default: false },
    deleted: Boolean,
  },
  { versionKey: false },
);

export const memberModel = (db: Connection) => db.model<MemberDoc>('Member', schema, 'members');
export type MemberModel = ReturnType<typeof memberModel>;

type Rights = Pick<MemberDoc, 'roles'> & Partial<Pick<MemberDoc, 'subscriptionEndsAt' | 'deleted'>>;

/** Beheerder or Moderator. */
export const isAdmin = (member: Rights | null | undefined): boolean => !!member && !member.deleted && member.roles.some((r) => ADMIN_ROLES.includes(r));

/** Role Premium, an admin role, or a subscription that has not ended (the same rule as the browser's session). */
export function isPremium(member: Rights | null | undefined, now = platformNow()): boolean {
  if (!member || member.deleted) return false;
  return isAdmin(member) || member.roles.includes('Premium') || (!!member.subscriptionEndsAt && new Date(member.subscriptionEndsAt) > now);
}

/** Both coordinates, or undefined. */
export function placeOf(member: Pick<MemberDoc, 'latitude' | 'longitude'> | null | undefined): { latitude: number; longitude: number } | undefined {
  return member && typeof member.latitude === 'number' && typeof member.longitude === 'number' ? { latitude: member.latitude, longitude: member.longitude } : undefined;
}
