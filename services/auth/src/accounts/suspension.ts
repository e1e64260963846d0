// A member's suspension as auth knows it (set by moderation's events) and as tokens carry it
// (contracts auth/suspensions.ts). It ends by its date on the platform's clock; nothing lifts it.
import type { SuspensionClaim } from '@ruilplein/contracts';
import { nowMs } from '@ruilplein/service-kit';
import type { UserDoc, UserSuspension } from './model.ts';

/** Where a user's suspension is stored: `suspension`, or `block` in documents written before the rename. */
export type SuspensionFields = Pick<UserDoc, 'suspension' | 'block'>;

/** Projection reading a user's suspension under either name. */
export const SUSPENSION_FIELDS = { suspension: 1, block: 1 } as const;

/** The stored suspension, whichever name holds it; the newer name wins. */
export function storedSuspension(user: SuspensionFields): UserSuspension | undefined {
  if (user.suspension?.reason) return user.suspension;
  const legacy = user.block;
  return legacy?.reason ? { reason: legacy.reason, ...(legacy.unblockDate && { endsAt: legacy.unblockDate }) } : undefined;
}

/** The suspension in force at `at`; undefined when there is none (any more). */
export function suspensionInForce(user: SuspensionFields, at = nowMs()): UserSuspension | undefined {
  const suspension = storedSuspension(user);
  return suspension && !(suspension.endsAt && suspension.endsAt.getTime() <= at) ? suspension : undefined;
}

/** The suspension in force at `at` as a token claim; undefined when there is none. */
export function suspensionClaimOf(user: SuspensionFields, at = nowMs()): SuspensionClaim | undefined {
  const suspension = suspensionInForce(user, at);
  if (!suspension) return undefined;
  // Whole seconds, rounded up: the token never ends a suspension early.
  return { r: suspension.reason, ...(suspension.endsAt && { u: Math.ceil(suspension.endsAt.getTime() / 1000) }) };
}
