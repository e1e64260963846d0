import { ADMIN_ROLES, ADMIN_USER_MESSAGES, hasAdminRole, hasPremiumMembershipAt, USER_MESSAGES, type AdminUser } from '@ruilplein/contracts';
import { conflict, forbidden, notFound, now as platformNow, type HandlerPart } from '@ruilplein/service-kit';
import { NOT_BEING_DELETED, stamped, userIdOf, type UserDoc } from '../accounts/model.ts';
import { userEventFields } from '../accounts/events.ts';
import { claimDeletion, completeDeletion, pendingClaim, type DeletionDeps } from '../cleanup/deletion.ts';

type AdminUserFields = Pick<UserDoc, '_id' | 'firstName' | 'lastName' | 'email' | 'city' | 'latitude' | 'longitude' | 'roles' | 'subscriptionEndsAt' | 'activated' | 'createdAt'>;

/** Only what 'Gebruikersbeheer' shows: never the password hash, link tokens, token version or suspension history. */
const PROJECTION = { firstName: 1, lastName: 1, email: 1, city: 1, latitude: 1, longitude: 1, roles: 1, subscriptionEndsAt: 1, activated: 1, createdAt: 1 } as const;

/** Premium here is the membership (the role or a running paid period), admin roles aside. */
function toAdminUser(user: AdminUserFields, now = platformNow()): AdminUser {
  return {
    id: user._id.toString(),
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    ...(user.city && { city: user.city }),
    ...(user.latitude != null && user.longitude != null && { latitude: user.latitude, longitude: user.longitude }),
    role: [...user.roles],
    isPremium: hasPremiumMembershipAt(user, now),
    activated: user.activated,
    createdAt: user.createdAt.toISOString(),
  };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each word must appear (case-insensitively) in the first name, last name, email or city. */
function searchFilter(q: string | undefined) {
  const words = q?.split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return {};
  return {
    $and: words.map((word) => {
      const pattern = { $regex: escapeRegex(word), $options: 'i' };
      return { $or: [{ firstName: pattern }, { lastName: pattern }, { email: pattern }, { city: pattern }] };
    }),
  };
}

/** Admin user management (spec 2 §7); the kit lets only Beheerder and Moderator through. */
export function adminUserHandlers(deps: DeletionDeps) {
  const { users, relay } = deps;
  return {
    adminUser: {
      list: async ({ query }) => {
        const filter = {
          ...NOT_BEING_DELETED,
          ...searchFilter(query.q),
          ...(query.activated !== undefined && { activated: query.activated }),
        };
        const [docs, total] = await Promise.all([
          users
            .find<AdminUserFields>(filter, { projection: PROJECTION })
            .sort({ createdAt: -1, _id: -1 })
            .skip((query.page - 1) * query.pageSize)
            .limit(query.pageSize)
            .toArray(),
          users.countDocuments(filter),
        ]);
        return { users: docs.map((u) => toAdminUser(u)), total, page: query.page, pageSize: query.pageSize };
      },
      activate: async ({ params }) => {
        // The event describes the user as it is written: match the version read, retry if it changed.
        for (let attempt = 0; attempt < 5; attempt++) {
          const user = await users.findOne({ _id: userIdOf(params.id), ...NOT_BEING_DELETED });
          if (!user) throw notFound(USER_MESSAGES.userNotFound);
          if (user.activated) throw conflict(ADMIN_USER_MESSAGES.alreadyActivated);
          const activated = { ...user, activated: true };
          const result = await users.updateOne(
            { _id: user._id, activated: false, updatedAt: user.updatedAt, ...NOT_BEING_DELETED },
            stamped({ $set: { activated: true, ...userEventFields('auth.user.activated', activated) }, $unset: { activation: '' } }),
          );
          if (result.modifiedCount === 1) {
            relay.kick();
            return { message: ADMIN_USER_MESSAGES.activated, user: toAdminUser(activated) };
          }
        }
        throw conflict(ADMIN_USER_MESSAGES.changedMeanwhile);
      },
      delete: async ({ params, principal }) => {
        if (params.id === principal.userId) throw forbidden(ADMIN_USER_MESSAGES.cannotDeleteSelf);
        const target = await users.findOne({ _id: userIdOf(params.id) }, { projection: { roles: 1 } });
        if (!target) throw notFound(USER_MESSAGES.userNotFound);
        // A moderator must not be able to remove the people who oversee moderators.
        const actorIsBeheerder = principal.roles.includes('Beheerder');
        if (!actorIsBeheerder && hasAdminRole(target)) throw forbidden(ADMIN_USER_MESSAGES.onlyBeheerderDeletesAdmins);
        const guard = actorIsBeheerder ? {} : { roles: { $nin: ADMIN_ROLES } };
        // A deletion that began earlier and did not finish (Redis was down) is finished now.
        const claim = (await claimDeletion(users, params.id, { reason: 'admin', by: principal.userId }, guard)) ?? (await pendingClaim(users, params.id));
        if (!claim) throw notFound(USER_MESSAGES.userNotFound);
        await completeDeletion(deps, params.id, claim);
        return { message: ADMIN_USER_MESSAGES.deleted };
      },
    },
  } satisfies HandlerPart<'auth'>;
}
