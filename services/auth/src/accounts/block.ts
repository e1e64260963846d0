// A member's block as auth knows it (set by moderation's events) and as tokens carry it
// (contracts auth/blocks.ts). It ends by its date on the platform's clock; nothing lifts it.
import type { BlockClaim } from '@ruilplein/contracts';
import { nowMs } from '@ruilplein/service-kit';
import type { UserDoc } from './model.ts';

/** The block in force at `at` as a token claim; undefined when there is none. */
export function blockClaimOf(user: Pick<UserDoc, 'block'>, at = nowMs()): BlockClaim | undefined {
  const block = user.block;
  if (!block?.reason) return undefined;
  if (block.unblockDate && block.unblockDate.getTime() <= at) return undefined;
  // Whole seconds, rounded up: the token never ends a block early.
  return { r: block.reason, ...(block.unblockDate && { u: Math.ceil(block.unblockDate.getTime() / 1000) }) };
}
