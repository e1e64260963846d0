import { USER_MESSAGES, userRoutes } from '@ruilplein/contracts';
import { notFound, nowMs, unauthorized, type Api } from '@ruilplein/service-kit';
import { blockClaimOf } from '../accounts/block.ts';
import { NOT_BEING_DELETED } from '../cleanup/deletion.ts';
import { toPublicUser, toUser, updateProfile, type ProfileDeps } from './profile.ts';
import { toPublicStats, type UserStatsModel } from './stats.ts';

export interface UserHttpDeps extends ProfileDeps {
  stats: UserStatsModel;
}

/** The member's own record, profile and status, and what anyone may see of a member. */
export function userHttp(api: Api, deps: UserHttpDeps) {
  const { users, stats } = deps;
  /** Only activated accounts have a public face: a pending registration is nobody yet, a deleted one nobody any more. */
  const publicMember = async (id: string) => {
    const user = await users.findOne({ _id: id, activated: true, ...NOT_BEING_DELETED }).lean();
    if (!user) throw notFound(USER_MESSAGES.userNotFound);
    return user;
  };

  api.handle(userRoutes.my, async ({ principal }) => {
    const user = await users.findById(principal.userId).lean();
    if (!user) throw unauthorized();
    return toUser(user);
  });

  api.handle(userRoutes.update, async ({ principal, body, files }) => {
    const user = await updateProfile(deps, principal.userId, body, files.profilePicture?.[0]);
    return { message: USER_MESSAGES.saved, user: toUser(user) };
  });

  api.handle(userRoutes.status, async ({ principal }) => {
    const user = await users.findById(principal.userId, { block: 1 }).lean();
    if (!user) throw unauthorized();
    // A block ends by its date on the platform's clock; nothing needs to lift it (no TTL on FerretDB).
    const block = blockClaimOf(user, nowMs()) && user.block;
    return { blocked: !!block, reason: block ? block.reason : null, unblockDate: block ? (block.unblockDate?.toISOString() ?? null) : null };
  });

  api.handle(userRoutes.public, async ({ params }) => toPublicUser(await publicMember(params.id)));

  api.handle(userRoutes.publicStats, async ({ params }) => {
    await publicMember(params.id);
    return toPublicStats(await stats.findById(params.id).lean());
  });
}
