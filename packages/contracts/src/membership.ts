// Membership rules every side applies alike: the services (from their member projections or auth's
// users) and the browser (from the session copy). Zod-free: the browser entry exports this file.
import { ADMIN_ROLES, type Role } from './auth/rules.ts';

/** What the rules read of a member; a projection's tombstone (`deleted`) has no rights. */
export interface MembershipState {
  roles: readonly Role[];
  /** The end of a paid period (a Date in the stores, an ISO text in events and answers). */
  subscriptionEndsAt?: Date | string | null;
  deleted?: boolean;
}

const endOf = (at: Date | string | null | undefined): number => (at == null ? Number.NaN : new Date(at).getTime());
const timeOf = (at: Date | number): number => (typeof at === 'number' ? at : at.getTime());

/** Beheerder or Moderator (spec 1 §6). */
export function hasAdminRole(member: MembershipState | null | undefined): boolean {
  return !!member && !member.deleted && member.roles.some((r) => ADMIN_ROLES.includes(r));
}

/**
 * Premium as a membership at `now`: the role Premium, or a paid period that has not ended (an end
 * exactly at `now` has ended). Admin roles aside: 'Gebruikersbeheer' shows this.
 */
export function hasPremiumMembershipAt(member: MembershipState | null | undefined, now: Date | number): boolean {
  if (!member || member.deleted) return false;
  return member.roles.includes('Premium') || endOf(member.subscriptionEndsAt) > timeOf(now);
}

/** Premium rights at `now` (no daily or listing limits, new listings early): the membership, or an admin role (spec 1 §6). */
export function isPremiumAt(member: MembershipState | null | undefined, now: Date | number): boolean {
  return hasAdminRole(member) || hasPremiumMembershipAt(member, now);
}
