import { hasAdminRole, isPremiumAt, PREMIUM_HEAD_START_HOURS } from '@ruilplein/contracts';
import { now as platformNow, isAdmin as tokenIsAdmin, type Principal } from '@ruilplein/service-kit';
import { placeOf, type MemberDoc } from '../members/model.ts';
import type { ListingContext } from './context.ts';
import type { ListingDoc } from './model.ts';

/** Who is looking, as the listing service knows them (premium, place and roles from the members projection). */
export interface Viewer {
  /** Absent for a guest. */
  id?: string;
  member?: MemberDoc;
  premium: boolean;
  /** Beheerder or Moderator, by the projection or the token (signed by auth). */
  admin: boolean;
  place?: { latitude: number; longitude: number };
  /** The caller's account was deleted (their token has not run out yet). */
  gone?: boolean;
}

export const GUEST: Viewer = { premium: false, admin: false };

export async function viewerOf(members: ListingContext['members'], principal: Principal | undefined, now = platformNow()): Promise<Viewer> {
  if (!principal) return GUEST;
  const member = (await members.byId(principal.userId)) ?? undefined;
  const live = member && !member.deleted ? member : undefined;
  return {
    id: principal.userId,
    member: live,
    premium: isPremiumAt(live, now),
    admin: hasAdminRole(live) || tokenIsAdmin(principal),
    place: placeOf(live),
    ...(member?.deleted && { gone: true }),
  };
}

/**
 * One of the viewer and the owner blocked the other (issue 22): the owner's listings are not found
 * for them. Admins are never blocked and keep seeing everything they moderate.
 */
export async function hiddenFrom(ctx: Pick<ListingContext, 'blocks'>, viewer: Viewer, ownerId: string): Promise<boolean> {
  if (viewer.id === undefined || viewer.admin || viewer.id === ownerId) return false;
  return ctx.blocks.blockedEitherWay(viewer.id, ownerId);
}

export const HEAD_START_MS = PREMIUM_HEAD_START_HOURS * 3600_000;

/**
 * Whether `viewer` may see a listing: its owner always; an inactive one only its owner and admins;
 * a premium-only one, and any listing in its first six hours, only Premium members; the rest
 * everyone, guests included. A listing one may not see is "not found" (its existence is not told).
 */
export function canSee(doc: Pick<ListingDoc, 'ownerId' | 'active' | 'isPremium' | 'createdAt' | 'deletedAt'>, viewer: Viewer, now = platformNow()): boolean {
  if (doc.deletedAt) return false;
  if (viewer.id !== undefined && viewer.id === doc.ownerId) return true;
  if (!doc.active) return viewer.admin;
  if (viewer.premium) return true;
  return !doc.isPremium && new Date(doc.createdAt).getTime() <= now.getTime() - HEAD_START_MS;
}

const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance (haversine) in km with one decimal; null when either place is unknown. */
export function distanceInKm(from: { latitude?: number; longitude?: number } | undefined, to: { latitude?: number; longitude?: number } | undefined): number | null {
  if (typeof from?.latitude !== 'number' || typeof from.longitude !== 'number' || typeof to?.latitude !== 'number' || typeof to.longitude !== 'number') return null;
  const dLat = rad(to.latitude - from.latitude);
  const dLon = rad(to.longitude - from.longitude);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(from.latitude)) * Math.cos(rad(to.latitude)) * Math.sin(dLon / 2) ** 2;
  const km = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
  return Math.round(km * 10) / 10;
}
