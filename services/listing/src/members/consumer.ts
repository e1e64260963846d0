import type { Bus, Logger, Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { deleteListingsOfDeletedMember, moveListingsOf } from '../listings/lifecycle.ts';
import { placeOf, type MemberDoc } from './model.ts';

export interface MemberHooks {
  /** After a member's state was applied (the demo seed waits for its members here). */
  applied?: (member: MemberDoc) => Promise<void>;
}

/**
 * The members projection (the kit's) kept from auth's `auth.user.*` events. When a member's place
 * changed their listings follow; when the account is deleted so are their listings, their
 * wishlist and the entries on their listings (the deletion is a tombstone that ignores every
 * older event). Who blocked whom (`auth.block.*`) is kept on the same durable; the search replicas
 * load it from that projection and follow the events themselves (search/sync.ts).
 */
export function consumeMembers(bus: Bus, ctx: ListingContext, logger: Logger, hooks: MemberHooks = {}): Promise<Worker> {
  return ctx.members.consume(bus, {
    durable: 'listing-members',
    logger,
    blocks: { projection: ctx.blocks },
    settled: async (member, deletion) => {
      if (deletion) {
        if (!member.deleted) return;
        // Also on a redelivery: every step is safe to repeat, and a failed one is finished here.
        const deleted = await deleteListingsOfDeletedMember(ctx, member._id);
        if (deleted) logger.info({ userId: member._id, listings: deleted }, 'listings of a deleted member removed');
        return;
      }
      if (member.deleted) return;
      // From the stored state, not the event: a late older event still leaves the listings where the member is now.
      await moveListingsOf(ctx, member._id, placeOf(member));
      await hooks.applied?.(member);
    },
  });
}
