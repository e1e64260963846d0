// A suspended member (banned by a moderator, or suspended automatically after too many warnings) may
// sign in, read their status and sign out; every other route that needs a login answers 403 with
// the suspension, which the shell turns into /geblokkeerd. The suspension travels in the access
// token (`sus`, tokens.ts), so the gateway and every service refuse without asking auth; it ends by
// its date on its own. "Block" is kept for a member blocking another member: the answer's field
// names (`blocked`, `unblockDate`) and /geblokkeerd are the seed's API and stay as they are.
// Zod-free: the browser reads the same body.

/** Why a member is suspended, as the answer's `reason` says it: a ban, or too many warnings. */
export const SUSPENSION_REASONS = ['ban', 'warnings'] as const;
export type SuspensionReason = (typeof SUSPENSION_REASONS)[number];

/** The token's `sus` claim: the reason, and the end in seconds since the epoch (absent: until lifted). */
export interface SuspensionClaim {
  r: SuspensionReason;
  u?: number;
}

export const SUSPENDED_MESSAGE = 'Je account is geblokkeerd.';

/** The 403 answer to a suspended member: the error body plus what /geblokkeerd shows (the seed's fields). */
export interface SuspendedBody {
  message: string;
  blocked: true;
  reason: SuspensionReason;
  /** ISO date the suspension ends; null: until a moderator lifts it. */
  unblockDate: string | null;
}

/** The suspension a claim still imposes at `nowMs`, as the 403 body; undefined when there is none (any more). */
export function activeSuspension(claim: SuspensionClaim | undefined, nowMs: number): SuspendedBody | undefined {
  if (!claim) return undefined;
  if (claim.u !== undefined && claim.u * 1000 <= nowMs) return undefined;
  return { message: SUSPENDED_MESSAGE, blocked: true, reason: claim.r, unblockDate: claim.u === undefined ? null : new Date(claim.u * 1000).toISOString() };
}

/** Whether an error body is a suspension (the browser navigates to /geblokkeerd on it). */
export function isSuspendedBody(body: unknown): body is SuspendedBody {
  return (
    !!body &&
    typeof body === 'object' &&
    (body as { blocked?: unknown }).blocked === true &&
    SUSPENSION_REASONS.includes((body as { reason?: SuspensionReason }).reason as SuspensionReason)
  );
}
