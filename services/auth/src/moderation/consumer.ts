import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import type { UserModel } from '../accounts/model.ts';
import { revokeTokens, type Redis } from '../accounts/tokens.ts';

/**
 * Blocks from the moderation service (`moderation.user.*`): a ban or an automatic block sets the
 * user's `block` and revokes every token they hold, so the gateway refuses their next request and
 * their next token carries the block (contracts auth/blocks.ts); the end of a block clears it.
 * Applied only when newer than the moderation version the user holds. A redelivered block revokes
 * once more: harmless, and it finishes a revocation the process may not have reached before.
 */
export function consumeModeration(deps: { bus: Bus; db: Connection; logger: Logger; users: UserModel; redis: Redis }): Promise<Worker> {
  const { users, redis } = deps;
  return consume(deps.bus, {
    durable: 'auth-moderation',
    registry: eventRegistry,
    subjects: ['moderation.user.banned', 'moderation.user.blocked', 'moderation.user.unblocked'],
    db: deps.db,
    logger: deps.logger,
    handler: async (event) => {
      const { userId, version } = event.payload;
      if (!Types.ObjectId.isValid(userId)) return;
      const _id = new Types.ObjectId(userId);
      const newer = { _id, $or: [{ moderationVersion: { $lt: version } }, { moderationVersion: { $exists: false } }] };
      if (event.type === 'moderation.user.unblocked') {
        await users.collection.updateOne(newer, { $set: { moderationVersion: version }, $unset: { block: '' } });
        return;
      }
      const { reason, unblockDate } = event.payload;
      await users.collection.updateOne(newer, { $set: { moderationVersion: version, block: { reason, ...(unblockDate && { unblockDate: new Date(unblockDate) }) } } });
      // Revoke while this block is the one the user holds (not when a newer state replaced it).
      if (await users.exists({ _id, moderationVersion: version })) await revokeTokens(redis, userId, users);
    },
  });
}
