import type { Bus, Logger, Worker } from '@ruilplein/service-kit';
import { recount, type ModerationContext } from '../context.ts';

/**
 * The members projection (the kit's) kept from auth's `auth.user.*` events: it names the people in
 * reports, tells admins apart (they are not warned or banned) and counts the activated members for
 * the dashboard, from what is stored after each event (a newer one may have landed meanwhile).
 */
export function consumeMembers(bus: Bus, ctx: ModerationContext, logger: Logger): Promise<Worker> {
  return ctx.members.consume(bus, {
    durable: 'moderation-members',
    logger,
    settled: (member) => recount(ctx, ctx.members.collection, member._id, member.activated && !member.deleted, 'totalUsers'),
  });
}
