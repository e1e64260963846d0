import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { recount, type ModerationContext } from '../context.ts';

/**
 * The members projection: auth's `auth.user.*` events, each applied only when newer. It names the
 * people in reports, tells admins apart (they are not warned or banned) and counts the activated
 * members for the dashboard. A deleted account keeps a tombstone that ignores older events.
 */
export function consumeMembers(bus: Bus, db: Connection, ctx: ModerationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'moderation-members',
    registry: eventRegistry,
    subjects: ['auth.user.registered', 'auth.user.activated', 'auth.user.updated', 'auth.user.deleted'],
    db,
    logger,
    handler: async (event) => {
      const { id, version } = event.payload;
      if (event.type === 'auth.user.deleted') {
        await applyIfNewer(ctx.members, id, version, { deleted: true, firstName: '', lastName: '', roles: [], activated: false });
      } else {
        const user = event.payload;
        await applyIfNewer(ctx.members, id, version, { firstName: user.firstName, lastName: user.lastName, roles: [...user.roles], activated: user.activated });
      }
      // After the write, from what is stored now (a newer event may have landed meanwhile).
      const member = await ctx.members.findOne({ _id: id });
      await recount(ctx, ctx.members, id, !!member && member.activated && !member.deleted, 'totalUsers');
    },
  });
}
