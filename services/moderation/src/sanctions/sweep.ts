import { eventRegistry } from '@ruilplein/contracts';
import { createEvent, now, startPeriodic, type Worker } from '@ruilplein/service-kit';
import type { ModerationContext } from '../context.ts';
import { changeMemberState, inForce } from './state.ts';

/**
 * Ends suspensions whose date has passed on the platform's clock: the suspension leaves the
 * member's state and `moderation.user.suspension-ended` tells auth, listing and trade. Auth and the
 * gateway already stop enforcing a suspension at its date by themselves; this tidies the records.
 * Reads only the sanctioned members' states (a small collection), then changes each by `_id`.
 */
export async function endExpiredSuspensions(ctx: ModerationContext, at = now()): Promise<number> {
  let ended = 0;
  // `block`: a state written before the rename.
  const expired = { $or: [{ 'suspension.until': { $lte: at } }, { 'block.until': { $lte: at } }] };
  for (const state of await ctx.states.find(expired, { projection: { _id: 1 } }).toArray()) {
    let changed = false;
    await changeMemberState(ctx, state._id, (current) => {
      changed = !!current.suspension && !inForce(current.suspension, at);
      if (!changed) return null; // a new suspension came meanwhile
      return {
        warnings: current.warnings,
        suspension: undefined,
        events: (version) => [createEvent(eventRegistry, 'moderation.user.suspension-ended', { userId: state._id, version, cause: 'expired', at: at.toISOString() })],
      };
    });
    if (changed) ended++;
  }
  return ended;
}

/** Runs endExpiredSuspensions every `intervalMs`. */
export function startSuspensionSweep(ctx: ModerationContext, intervalMs: number): Worker {
  return startPeriodic({ intervalMs, work: () => endExpiredSuspensions(ctx), logger: ctx.logger, what: 'ending expired suspensions' });
}
