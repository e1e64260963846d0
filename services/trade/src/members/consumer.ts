import { eventRegistry, type UserEvent } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import { closeOffersOfMember } from '../offers/lifecycle.ts';
import type { MemberDoc } from './model.ts';

/** Applies one member state when it is newer than the stored one (an ended subscription is removed). */
export function applyMember(ctx: Pick<TradeContext, 'members'>, user: UserEvent): Promise<boolean> {
  const set: Partial<MemberDoc> = {
    firstName: user.firstName,
    lastName: user.lastName,
    profilePicture: user.profilePicture,
    roles: [...user.roles],
    activated: user.activated,
    ...(user.subscriptionEndsAt && { subscriptionEndsAt: new Date(user.subscriptionEndsAt) }),
  };
  return applyIfNewer(ctx.members, user.id, user.version, set, { unset: set.subscriptionEndsAt ? [] : ['subscriptionEndsAt'] });
}

/**
 * The members projection: auth's `auth.user.*` events, each applied only when newer. When an
 * account is deleted, its tombstone ignores every older event, its open offers are cancelled
 * (announced: the other party's chat closes) and its party document goes (auth drops its
 * statistics too). A ban, once moderation announces it, takes the same `closeOffersOfMember`.
 */
export function consumeMembers(bus: Bus, db: Connection, ctx: TradeContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'trade-members',
    registry: eventRegistry,
    subjects: ['auth.user.registered', 'auth.user.activated', 'auth.user.updated', 'auth.user.deleted'],
    db,
    logger,
    handler: async (event) => {
      if (event.type !== 'auth.user.deleted') {
        await applyMember(ctx, event.payload);
        return;
      }
      const { id, version } = event.payload;
      await applyIfNewer(ctx.members, id, version, { deleted: true, firstName: '', lastName: '', profilePicture: '', roles: [], activated: false }, { unset: ['subscriptionEndsAt'] });
      const member = await ctx.members.findOne({ _id: id });
      if (!member?.deleted) return;
      // Also on a redelivery: each step is safe to repeat, and a failed one is finished here.
      const cancelled = await closeOffersOfMember(ctx, id, ctx.clock());
      await ctx.parties.deleteOne({ _id: id });
      if (cancelled) logger.info({ userId: id, cancelled }, 'open offers of a deleted member cancelled');
    },
  });
}
