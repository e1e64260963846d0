import { now as platformNow } from '@ruilplein/service-kit';
import type { Logger, Worker } from '@ruilplein/service-kit';
import { NOT_BEING_DELETED } from '../accounts/model.ts';
import { claimDeletion, completeDeletion, resumeDeletions, type DeletionDeps } from './deletion.ts';

/** Spec 1 §9 and the privacy statement: accounts inactive for 24 months are deleted. */
export const INACTIVE_MONTHS = 24;

/** A claim older than this has lost its caller (a crash, or Redis down): the job finishes it. */
const STUCK_AFTER_MS = 60_000;
const BATCH = 100;

/** The moment 24 calendar months before `now`: who was last active before it is deleted. */
export function inactiveBefore(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - INACTIVE_MONTHS);
  return cutoff;
}

export interface InactivityCleanup extends Worker {
  /** One pass: finishes stuck deletions, then deletes every inactive account; resolves to how many it deleted. */
  run(): Promise<number>;
}

/**
 * Deletes inactive accounts on a schedule, each with `auth.user.deleted` through the outbox. Every
 * replica runs it: each deletion is claimed with a conditional write that re-checks the
 * inactivity, so two passes at once delete (and announce) each account once, and a member who
 * logs in while the pass runs keeps the account.
 */
export function startInactivityCleanup(
  deps: DeletionDeps & { logger: Logger; now?: () => Date; intervalMs?: number; firstRunAfterMs?: number },
): InactivityCleanup {
  const now = deps.now ?? (() => platformNow());
  let running: Promise<number> | undefined;

  const pass = async () => {
    const started = now();
    await resumeDeletions(deps, new Date(started.getTime() - STUCK_AFTER_MS));
    const inactive = { lastActiveAt: { $lt: inactiveBefore(started) } };
    let deleted = 0;
    for (;;) {
      const batch = await deps.users.find({ ...inactive, ...NOT_BEING_DELETED }, { projection: { _id: 1 } }).limit(BATCH).toArray();
      for (const { _id } of batch) {
        const userId = _id.toString();
        const claim = await claimDeletion(deps.users, userId, { reason: 'inactive' }, inactive, now());
        if (!claim) continue;
        await completeDeletion(deps, userId, claim);
        deleted++;
      }
      if (batch.length < BATCH) break;
    }
    if (deleted > 0) deps.logger.info({ deleted }, 'inactive accounts deleted');
    return deleted;
  };

  const run = () => {
    running ??= pass().finally(() => (running = undefined));
    return running;
  };

  // The first pass soon after start, not an interval later: replicas restarted more often than
  // the interval would otherwise never run it.
  let timer: NodeJS.Timeout;
  let stopped = false;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      run()
        .catch((err) => deps.logger.warn({ err }, 'inactive account cleanup failed; retrying at the next run'))
        .finally(() => stopped || schedule(deps.intervalMs ?? 3600_000));
    }, delayMs);
  };
  schedule(deps.firstRunAfterMs ?? 60_000);

  return {
    run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
