import { reliabilityOf, USER_MESSAGES } from '@ruilplein/contracts';
import { notFound, nowMs, unauthorized, type HandlerPart } from '@ruilplein/service-kit';
import { SUSPENSION_FIELDS, suspensionInForce } from '../accounts/suspension.ts';
import { NOT_BEING_DELETED, userIdOf } from '../accounts/model.ts';
import { toPublicUser, toUser, updateProfile, type ProfileDeps } from './profile.ts';
import { toPublicStats, type UserStatsCollection } from './stats.ts';

export interface UserHttpDeps extends ProfileDeps {
  stats: UserStatsCollection;
}

/** The member's own record, profile and status, and what anyone may see of a member. */
export function userHandlers(deps: UserHttpDeps) {
  const { users, stats } = deps;
  /** Only activated accounts have a public face: a pending registration is nobody yet, a deleted one nobody any more. */
  const publicMember = async (id: string) => {
    const user = await users.findOne({ _id: userIdOf(id), activated: true, ...NOT_BEING_DELETED });
    if (!user) throw notFound(USER_MESSAGES.userNotFound);
    return user;
  };
  return {
    user: {
      my: async ({ principal }) => {
        const user = await users.findOne({ _id: userIdOf(principal.userId) });
        if (!user) throw unauthorized();
        return toUser(user);
      },
      update: async ({ principal, body, files }) => {
        const user = await updateProfile(deps, principal.userId, body, files.profilePicture?.[0]);
        return { message: USER_MESSAGES.saved, user: toUser(user) };
      },
      status: async ({ principal }) => {
        const user = await users.findOne({ _id: userIdOf(principal.userId) }, { projection: SUSPENSION_FIELDS });
        if (!user) throw unauthorized();
        // A suspension ends by its date on the platform's clock; nothing needs to lift it (no TTL on FerretDB).
        const suspension = suspensionInForce(user, nowMs());
        // The seed's answer: `blocked` and `unblockDate` name the suspension.
        return { blocked: !!suspension, reason: suspension?.reason ?? null, unblockDate: suspension ? (suspension.endsAt?.toISOString() ?? null) : null };
      },
      public: async ({ params }) => toPublicUser(await publicMember(params.id)),
      publicStats: async ({ params }) => {
        await publicMember(params.id);
        return toPublicStats(await stats.findOne({ _id: params.id }));
      },
      reliability: async ({ params }) => {
        await publicMember(params.id);
        const doc = await stats.findOne({ _id: params.id }, { projection: { reliability: 1 } });
        // Computed now: an offer left unanswered turns late by the clock alone.
        return reliabilityOf(doc?.reliability, nowMs());
      },
      reliabilities: async ({ query }) => {
        // Public faces only, as above; one read per collection for the whole page.
        const members = await users.find({ _id: { $in: query.ids.map(userIdOf) }, activated: true, ...NOT_BEING_DELETED }, { projection: { _id: 1 } }).toArray();
        const ids = members.map((m) => m._id.toString());
        const facts = new Map((await stats.find({ _id: { $in: ids } }, { projection: { reliability: 1 } }).toArray()).map((d) => [d._id, d.reliability]));
        const now = nowMs();
        return query.ids.filter((id) => ids.includes(id)).map((userId) => ({ userId, ...reliabilityOf(facts.get(userId), now) }));
      },
    },
  } satisfies HandlerPart<'auth'>;
}
