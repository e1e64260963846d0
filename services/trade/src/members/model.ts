import { ADMIN_ROLES, DEFAULT_AVATAR, FORMER_MEMBER, type OfferParty, type Role } from '@ruilplein/contracts';
import { now as platformNow } from '@ruilplein/service-kit';

/**
 * What the trade service knows of a member: the projection of auth's `auth.user.*` events
 * (members/consumer.ts), applied only when newer (`version`). It decides the daily limit (Premium,
 * admins) and gives the names and pictures of an offer's parties and of reviewers; never the request.
 */
export interface MemberDoc {
  /** auth's user id. */
  _id: string;
  version: number;
  firstName: string;
  lastName: string;
  profilePicture: string;
  roles: Role[];
  subscriptionEndsAt?: Date;
  activated: boolean;
  /** The account is gone: a tombstone (no personal data) that ignores any older event. */
  deleted?: boolean;
}

type Rights = Pick<MemberDoc, 'roles'> & Partial<Pick<MemberDoc, 'subscriptionEndsAt' | 'deleted'>>;

/** Beheerder or Moderator. */
export const isAdmin = (member: Rights | null | undefined): boolean => !!member && !member.deleted && member.roles.some((r) => ADMIN_ROLES.includes(r));

/** Role Premium, an admin role, or a subscription that has not ended (the browser's rule too): no daily limit. */
export function isPremium(member: Rights | null | undefined, now = platformNow()): boolean {
  if (!member || member.deleted) return false;
  return isAdmin(member) || member.roles.includes('Premium') || (!!member.subscriptionEndsAt && new Date(member.subscriptionEndsAt) > now);
}

/** A party or reviewer as shown: a member whose account is gone (or is not known yet) as 'Voormalig lid'. */
export function partyOf(id: string, member: MemberDoc | null | undefined): OfferParty {
  if (!member || member.deleted) return { id, ...FORMER_MEMBER, profilePicture: DEFAULT_AVATAR };
  return { id, firstName: member.firstName, lastName: member.lastName, profilePicture: member.profilePicture || DEFAULT_AVATAR };
}
