import { eventRegistry, type UserEvent } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { ListingContext } from '../listings/context.ts';
import { deleteListingsOfDeletedMember, moveListingsOf } from '../listings/lifecycle.ts';
import { placeOf, type MemberDoc } from './model.ts';

const OPTIONAL = ['city', 'latitude', 'longitude', 'subscriptionEndsAt'] as const;

/**
 * Applies one member state when it is newer than the stored one; fields the event leaves out (a
 * cleared city, an ended subscription) are removed in the same write. Answers whether it applied.
 */
export async function applyMember(ctx: Pick<ListingContext, 'members'>, user: UserEvent): Promise<boolean> {
  const set: Partial<MemberDoc> = {
    firstName: user.firstName,
    lastName: user.lastName,
    roles: [...user.roles],
    activated: user.activated,
    ...(user.city !== undefined && { city: user.city }),
    ...(user.latitude !== undefined && user.longitude !== undefined && { latitude: user.latitude, longitude: user.longitude }),
    ...(user.subscriptionEndsAt && { subscriptionEndsAt: new Date(user.subscriptionEndsAt) }),
  };
  return applyIfNewer(ctx.members, user.id, user.version, set, { unset: OPTIONAL.filter((f) => !(f in set)) });
}

export interface MemberHooks {
  /** After a member's state was applied (the demo seed waits for its members here). */
  applied?: (member: MemberDoc) => Promise<void>;
}

/**
 * The members projection: auth's `auth.user.*` events, each applied only when newer. When a
 * member's place changed their listings follow; when the account is deleted so are their
 * listings, their wishlist and the entries on their listings (the deletion is a tombstone that
 * ignores every older event).
 */
export function consumeMembers(bus: Bus, db: Connection, ctx: ListingContext, logger: Logger, hooks: MemberHooks = {}): Promise<Worker> {
  return consume(bus, {
    durable: 'listing-members',
    registry: eventRegistry,
    subjects: ['auth.user.registered', 'auth.user.activated', 'auth.user.updated', 'auth.user.deleted'],
    db,
    logger,
    handler: async (event) => {
      if (event.type === 'auth.user.deleted') {
        const { id, version } = event.payload;
        await applyIfNewer(ctx.members, id, version, { deleted: true, firstName: '', lastName: '', roles: [], activated: false }, { unset: OPTIONAL });
        const member = await ctx.members.findById(id).lean();
        if (!member?.deleted) return;
        // Also on a redelivery: every step is safe to repeat, and a failed one is finished here.
        const deleted = await deleteListingsOfDeletedMember(ctx, id);
        if (deleted) logger.info({ userId: id, listings: deleted }, 'listings of a deleted member removed');
        return;
      }
      const user = event.payload;
      await applyMember(ctx, user);
      const member = await ctx.members.findById(user.id).lean();
      if (!member || member.deleted) return;
      // From the stored state, not the event: a late older event still leaves the listings where the member is now.
      await moveListingsOf(ctx, member._id, placeOf(member));
      await hooks.applied?.(member);
    },
  });
}
