import type { Bus, Logger, Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { closeOffersBetween, closeOffersOfMember } from '../offers/lifecycle.ts';

/**
 * The members projection (the kit's) kept from auth's `auth.user.*` events. When an account is
 * deleted, its open offers are cancelled (announced: the other party's chat closes) and its party
 * document goes (auth drops its statistics too). A ban, once moderation announces it, takes the
 * same `closeOffersOfMember`. A block (auth's `auth.block.added`, on the same durable) cancels the
 * two members' open offers.
 */
export function consumeMembers(bus: Bus, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return ctx.members.consume(bus, {
    durable: 'trade-members',
    logger,
    settled: async (member, deletion) => {
      if (!deletion || !member.deleted) return;
      // Also on a redelivery: each step is safe to repeat, and a failed one is finished here.
      const cancelled = await closeOffersOfMember(ctx, member._id, ctx.clock());
      await ctx.parties.deleteOne({ _id: member._id });
      if (cancelled) logger.info({ userId: member._id, cancelled }, 'open offers of a deleted member cancelled');
    },
    blocks: {
      projection: ctx.blocks,
      changed: async ({ blockerId, blockedId }) => {
        // From the stored relation, not the event: a late block after the unblock cancels nothing.
        if (!(await ctx.blocks.blockedEitherWay(blockerId, blockedId))) return;
        const cancelled = await closeOffersBetween(ctx, blockerId, blockedId, ctx.clock());
        if (cancelled) logger.info({ blockerId, cancelled }, 'open offers between blocked members cancelled');
      },
    },
  });
}
