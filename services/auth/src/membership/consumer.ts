import { eventRegistry, type Role } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type OutboxRelay, type Worker } from '@ruilplein/service-kit';
import { Types } from 'mongoose';
import { userEventFields } from '../accounts/events.ts';
import { NOT_BEING_DELETED, stamped, userIdOf, type UserCollection } from '../accounts/model.ts';

/**
 * Premium from the payment service (`payment.subscription.*`): activated, renewed or cancelled set
 * `subscriptionEndsAt` to the end of the paid period and give the Premium role; expired takes the
 * role back (only when the subscription gave it) and clears the date. Applied only when newer than
 * the membership version the user holds, announced as `auth.user.updated` (listing and trade follow).
 */
export function consumeMembership(deps: { bus: Bus; db: Connection; logger: Logger; users: UserCollection; relay: Pick<OutboxRelay, 'kick'> }): Promise<Worker> {
  const { users, relay } = deps;
  return consume(deps.bus, {
    durable: 'auth-membership',
    registry: eventRegistry,
    subjects: ['payment.subscription.activated', 'payment.subscription.renewed', 'payment.subscription.cancelled', 'payment.subscription.expired'],
    db: deps.db,
    logger: deps.logger,
    handler: async (event) => {
      const { userId, version, paidUntil } = event.payload;
      if (!Types.ObjectId.isValid(userId)) return;
      for (let attempt = 0; attempt < 10; attempt++) {
        const user = await users.findOne({ _id: userIdOf(userId), ...NOT_BEING_DELETED });
        if (!user || (user.membershipVersion ?? 0) >= version) return;
        const ends = event.type !== 'payment.subscription.expired' && paidUntil ? new Date(paidUntil) : undefined;
        const hadRole = user.roles.includes('Premium');
        const fromSubscription = ends ? (user.premiumFromSubscription ?? !hadRole) : false;
        const roles: Role[] = ends ? (hadRole ? [...user.roles] : [...user.roles, 'Premium']) : user.premiumFromSubscription ? user.roles.filter((r) => r !== 'Premium') : [...user.roles];
        const { subscriptionEndsAt: _old, ...rest } = user;
        const after = { ...rest, roles, ...(ends && { subscriptionEndsAt: ends }) };
        const done = await users.updateOne(
          { _id: user._id, version: user.version ?? { $exists: false } },
          stamped({
            $set: { roles, membershipVersion: version, premiumFromSubscription: fromSubscription, ...(ends && { subscriptionEndsAt: ends }), ...userEventFields('auth.user.updated', after) },
            ...(!ends && { $unset: { subscriptionEndsAt: '' } }),
          }),
        );
        if (done.modifiedCount === 1) {
          relay.kick();
          return;
        }
      }
      throw new Error(`membership of ${userId}: the user changed too often meanwhile`);
    },
  });
}
