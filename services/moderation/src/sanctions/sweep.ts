import { eventRegistry } from '@ruilplein/contracts';
import { createEvent, now, startPeriodic, type Worker } from '@ruilplein/service-kit';
import type { ModerationContext } from '../context.ts';
import { changeMemberState, inForce } from './state.ts';

/**
 * Ends blocks whose date has passed on the platform's clock: the block leaves the member's state
 * and `moderation.user.unblocked` tells auth. Auth and the gateway already stop enforcing a block
 * at its date by themselves; this tidies the records. Reads only the sanctioned members' states
 * (a small collection), then changes each by `_id`.
 */
export async function endExpiredBlocks(ctx: ModerationContext, at = now()): Promise<number> {
  let ended = 0;
  for (const state of await ctx.states.find({ 'block.until': { $lte: at } }, { projection: { _id: 1 } }).toArray()) {
    let changed = false;
    await changeMemberState(ctx, state._id, (current) => {
      changed = !!current.block && !inForce(current.block, at);
      if (!changed) return null; // a new block came meanwhile
      return {
        warnings: current.warnings,
        block: undefined,
        events: (version) => [createEvent(eventRegistry, 'moderation.user.unblocked', { userId: state._id, version, at: at.toISOString() })],
      };
    });
    if (changed) ended++;
  }
  return ended;
}

/** Runs endExpiredBlocks every `intervalMs`. */
export function startBlockSweep(ctx: ModerationContext, intervalMs: number): Worker {
  return startPeriodic({ intervalMs, work: () => endExpiredBlocks(ctx), logger: ctx.logger, what: 'ending expired blocks' });
}
