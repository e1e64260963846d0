import type { Member } from '@ruilplein/service-kit';

/**
 * What the listing service keeps of a member: the kit's projection of auth's `auth.user.*` events
 * (members/consumer.ts). It decides Premium rights (contracts' `isPremiumAt`), the caller's place
 * for distances and the owner shown on a listing; never the request. Search reads the same
 * collection when it loads (search/sync.ts).
 */
export const MEMBER_FIELDS = ['firstName', 'lastName', 'city', 'place', 'roles', 'activated', 'subscriptionEndsAt'] as const;
export type MemberField = (typeof MEMBER_FIELDS)[number];
export type MemberDoc = Member<MemberField>;

/** Both coordinates, or undefined. */
export function placeOf(member: Pick<MemberDoc, 'latitude' | 'longitude'> | null | undefined): { latitude: number; longitude: number } | undefined {
  return member && typeof member.latitude === 'number' && typeof member.longitude === 'number' ? { latitude: member.latitude, longitude: member.longitude } : undefined;
}
