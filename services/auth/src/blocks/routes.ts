import { BLOCK_MESSAGES, hasAdminRole, USER_MESSAGES, type BlockedMember } from '@ruilplein/contracts';
import { badRequest, byIds, notFound, type HandlerPart } from '@ruilplein/service-kit';
import { NOT_BEING_DELETED, userIdOf, type UserCollection } from '../accounts/model.ts';
import { setBlock, type BlockCollection } from './model.ts';

export interface BlockDeps {
  users: UserCollection;
  blocks: BlockCollection;
  /** The outbox relay's kick: a change queued its event. */
  announce: () => void;
}

/**
 * Blocking another member (issue 22). Auth keeps who blocked whom and announces each change; every
 * other service enforces it both ways from its own projection. The blocked member is told nothing:
 * nothing here answers them, and no event names a recipient of a message.
 */
export function blockHandlers(deps: BlockDeps) {
  const { users, blocks, announce } = deps;
  return {
    block: {
      add: async ({ params, principal }) => {
        if (params.userId === principal.userId) throw badRequest(BLOCK_MESSAGES.self);
        // Only someone with a public face can be blocked: a pending registration or a deleted account is nobody.
        const target = await users.findOne({ _id: userIdOf(params.userId), activated: true, ...NOT_BEING_DELETED }, { projection: { roles: 1 } });
        if (!target) throw notFound(USER_MESSAGES.userNotFound);
        // Moderators and admins must keep reaching every member.
        if (hasAdminRole(target)) throw badRequest(BLOCK_MESSAGES.admin);
        if (await setBlock(blocks, principal.userId, params.userId, true)) announce();
        return null;
      },
      remove: async ({ params, principal }) => {
        if (await setBlock(blocks, principal.userId, params.userId, false)) announce();
        return null;
      },
      list: async ({ principal }) => {
        const doc = await blocks.findOne({ _id: principal.userId });
        const active = Object.entries(doc?.entries ?? {})
          .filter(([, e]) => e.active)
          .sort(([, a], [, b]) => +b.since - +a.since);
        const names = new Map(
          (await byIds(users, active.map(([id]) => userIdOf(id)))).map((u) => [u._id.toString(), u]),
        );
        return active.flatMap(([userId, e]): BlockedMember[] => {
          const user = names.get(userId);
          return user ? [{ userId, firstName: user.firstName, lastName: user.lastName, since: e.since.toISOString() }] : [];
        });
      },
    },
  } satisfies HandlerPart<'auth'>;
}
