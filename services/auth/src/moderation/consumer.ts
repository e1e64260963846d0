import { SUSPENSION_SUBJECTS, suspensionChangeOf, suspensionEventRegistry } from '@ruilplein/contracts';
import { consume, exists, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import type { UserCollection } from '../accounts/model.ts';
import { revokeTokens, type Redis } from '../accounts/tokens.ts';

/**
 * Suspensions from the moderation service (`moderation.user.suspended|suspension-ended`, and the
 * names before the rename): a suspension sets the user's `suspension` and revokes every token they
 * hold, so the gateway refuses their next request and their next token carries it (contracts
 * auth/suspensions.ts); its end (its date passed, or an admin lifted it: `cause: 'lifted'`) clears it. Either write drops a `block` stored before the rename.
 * Applied only when newer than the moderation version the user holds. A redelivered suspension
 * revokes once more: harmless, and it finishes a revocation the process may not have reached before.
 */
export function consumeModeration(deps: { bus: Bus; db: Connection; logger: Logger; users: UserCollection; redis: Redis }): Promise<Worker> {
  const { users, redis } = deps;
  return consume(deps.bus, {
    durable: 'auth-moderation',
    registry: suspensionEventRegistry,
    subjects: SUSPENSION_SUBJECTS,
    db: deps.db,
    logger: deps.logger,
    handler: async (event) => {
      const { userId, version, suspension } = suspensionChangeOf(event);
      if (!Types.ObjectId.isValid(userId)) return;
      const _id = new Types.ObjectId(userId);
      const newer = { _id, $or: [{ moderationVersion: { $lt: version } }, { moderationVersion: { $exists: false } }] };
      if (!suspension) {
        // Not stamped (updatedAt): a sanction is no edit of the member's record.
        await users.updateOne(newer, { $set: { moderationVersion: version }, $unset: { suspension: '', block: '' } });
        return;
      }
      const stored = { reason: suspension.reason, ...(suspension.endsAt && { endsAt: new Date(suspension.endsAt) }) };
      await users.updateOne(newer, { $set: { moderationVersion: version, suspension: stored }, $unset: { block: '' } });
      // Revoke while this suspension is the one the user holds (not when a newer state replaced it).
      if (await exists(users, { _id, moderationVersion: version })) await revokeTokens(redis, userId, users);
    },
  });
}
