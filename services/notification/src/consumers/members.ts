// auth's members (first names for the texts), their blocks (nothing from one reaches the other),
// and deleted accounts (their notifications and preferences go), on one durable in auth's order.
import type { Bus, Logger, Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { forgetBetween, forgetMember } from '../notifications/store.ts';

export function consumeMembers(bus: Bus, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return ctx.members.consume(bus, {
    durable: 'notification-members',
    logger,
    blocks: {
      projection: ctx.blocks,
      changed: async (event, added) => {
        if (added) await forgetBetween(ctx, event.blockerId, event.blockedId);
      },
    },
    settled: async (member, deletion) => {
      if (deletion && member.deleted) await forgetMember(ctx, member._id);
    },
  });
}
