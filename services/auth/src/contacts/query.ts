import { authQueries } from '@ruilplein/contracts';
import { byIds, serveQuery, type Bus, type Logger, type Worker } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import type { UserCollection } from '../accounts/model.ts';

/**
 * Answers `rpc.auth.member.contacts`: the addresses of activated members, read by `_id` in one
 * lookup per question (the notification service asks per batch of mails).
 */
export function serveContacts(bus: Bus, users: UserCollection, logger: Logger): Worker {
  return serveQuery(
    bus,
    'auth',
    authQueries.contacts,
    async ({ ids }) => {
      const valid = ids.filter((id) => Types.ObjectId.isValid(id) && id.length === 24).map((id) => new Types.ObjectId(id));
      const found = await byIds(users, valid, { activated: true });
      return found.map((u) => ({ id: u._id.toHexString(), email: u.email }));
    },
    logger,
  );
}
