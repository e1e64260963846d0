// Moderation's suspensions as a service other than auth follows them (listing, trade): every
// version of the events (contracts moderation/events.ts, the names before the rename included) read
// as one change, applied once and in order per member. What a suspension does is the service's.
import { SUSPENSION_SUBJECTS, suspensionChangeOf, suspensionEventRegistry, type SuspensionChange } from '@ruilplein/contracts';
import type { Connection } from 'mongoose';
import type { Logger } from './logger.ts';
import { consume, type Bus, type Worker } from './nats.ts';
import { applyIfNewer } from './projection.ts';

/** What a service knows of a member's suspension: the newest moderation version it applied. */
export interface SuspensionStateDoc {
  _id: string;
  version: number;
  suspended: boolean;
  reason?: NonNullable<SuspensionChange['suspension']>['reason'];
  /** null: until lifted. */
  endsAt?: Date | null;
}

export const SUSPENSION_STATES = 'member_suspensions';

export interface SuspensionConsumerOptions {
  durable: string;
  db: Connection;
  logger: Logger;
  /** Runs for a suspension newer than the member's known state; must be safe to repeat (a crash before the state is recorded runs it again). */
  suspended(change: SuspensionChange & { suspension: NonNullable<SuspensionChange['suspension']> }): Promise<void>;
}

/**
 * Consumes suspensions and their ends. Each is recorded in `member_suspensions` with its version,
 * so an event no newer than what is known (a redelivery, a replay, an old-name copy, a suspension
 * arriving after its own end) changes nothing: in particular it does not take away again what the
 * member did after the suspension ended. The end itself only records that state; what the
 * suspension took away stays away (decisions.md "Moderation").
 */
export function consumeSuspensions(bus: Bus, options: SuspensionConsumerOptions): Promise<Worker> {
  const states = options.db.collection<SuspensionStateDoc>(SUSPENSION_STATES);
  return consume(bus, {
    durable: options.durable,
    registry: suspensionEventRegistry,
    subjects: SUSPENSION_SUBJECTS,
    db: options.db,
    logger: options.logger,
    handler: async (event) => {
      const change = suspensionChangeOf(event);
      // One read by `_id`; the write below is conditional on the version anyway.
      const known = await states.findOne({ _id: change.userId }, { projection: { version: 1 } });
      if (known && known.version >= change.version) return;
      const { suspension } = change;
      if (suspension) await options.suspended({ ...change, suspension });
      await applyIfNewer(
        states,
        change.userId,
        change.version,
        suspension ? { suspended: true, reason: suspension.reason, endsAt: suspension.endsAt === null ? null : new Date(suspension.endsAt) } : { suspended: false },
        suspension ? {} : { unset: ['reason', 'endsAt'] },
      );
    },
  });
}
