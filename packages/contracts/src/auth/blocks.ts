// A blocked member (banned by an admin, or blocked automatically after too many warnings) may sign
// in, read their status and sign out; every other route that needs a login answers 403 with the
// block, which the shell turns into /geblokkeerd. The block travels in the access token (`blk`),
// so the gateway and every service refuse without asking auth; it ends by its date on its own.
// Zod-free: the browser reads the same body.

export const BLOCK_REASONS = ['ban', 'warnings'] as const;
export type BlockReason = (typeof BLOCK_REASONS)[number];

/** The token's `blk` claim: the reason, and the end in seconds since the epoch (absent: until lifted). */
export interface BlockClaim {
  r: BlockReason;
  u?: number;
}

export const BLOCKED_MESSAGE = 'Je account is geblokkeerd.';

/** The 403 answer to a blocked member: the error body plus what /geblokkeerd shows. */
export interface BlockedBody {
  message: string;
  blocked: true;
  reason: BlockReason;
  /** ISO date the block ends; null: until an admin lifts it. */
  unblockDate: string | null;
}

/** The block a claim still imposes at `nowMs`, as the 403 body; undefined when there is none (any more). */
export function activeBlock(claim: BlockClaim | undefined, nowMs: number): BlockedBody | undefined {
  if (!claim) return undefined;
  if (claim.u !== undefined && claim.u * 1000 <= nowMs) return undefined;
  return { message: BLOCKED_MESSAGE, blocked: true, reason: claim.r, unblockDate: claim.u === undefined ? null : new Date(claim.u * 1000).toISOString() };
}

/** Whether an error body is a block (the browser navigates to /geblokkeerd on it). */
export function isBlockedBody(body: unknown): body is BlockedBody {
  return !!body && typeof body === 'object' && (body as { blocked?: unknown }).blocked === true && BLOCK_REASONS.includes((body as { reason?: BlockReason }).reason as BlockReason);
}
