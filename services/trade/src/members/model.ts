import { DEFAULT_AVATAR, FORMER_MEMBER, type OfferParty } from '@ruilplein/contracts';
import type { Member } from '@ruilplein/service-kit';

/**
 * What the trade service keeps of a member: the kit's projection of auth's `auth.user.*` events
 * (members/consumer.ts). It decides the daily limit (contracts' `isPremiumAt`, admins) and gives the
 * names and pictures of an offer's parties and of reviewers; never the request.
 */
export const MEMBER_FIELDS = ['firstName', 'lastName', 'profilePicture', 'roles', 'activated', 'subscriptionEndsAt'] as const;
export type MemberField = (typeof MEMBER_FIELDS)[number];
export type MemberDoc = Member<MemberField>;

/** A party or reviewer as shown: a member whose account is gone (or is not known yet) as 'Voormalig lid'. */
export function partyOf(id: string, member: MemberDoc | null | undefined): OfferParty {
  if (!member || member.deleted) return { id, ...FORMER_MEMBER, profilePicture: DEFAULT_AVATAR };
  return { id, firstName: member.firstName, lastName: member.lastName, profilePicture: member.profilePicture || DEFAULT_AVATAR };
}
