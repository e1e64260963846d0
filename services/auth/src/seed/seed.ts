import { now as platformNow } from '@ruilplein/service-kit';
import type { Role } from '@ruilplein/contracts';
import { DEMO_MEMBERS, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { Types } from 'mongoose';
import type { AuthContext } from '../accounts/context.ts';
import { userEventFields } from '../accounts/events.ts';
import { stamped, type UserDoc } from '../accounts/model.ts';

export { DEMO_ADMIN_EMAIL, DEMO_PASSWORD } from '@ruilplein/contracts/demo';

type Demo = Pick<UserDoc, 'firstName' | 'lastName' | 'email' | 'city' | 'latitude' | 'longitude' | 'roles'>;

export const DEMO_ACCOUNTS: readonly Demo[] = Object.values(DEMO_MEMBERS);

/**
 * Local mode: activated demo members and an admin, inserted when missing and never overwritten
 * (a changed password or profile survives a restart); each insert announces the member.
 */
export async function seedDemoAccounts(ctx: Pick<AuthContext, 'users' | 'passwords'>): Promise<number> {
  const passwordHash = await ctx.passwords.hash(DEMO_PASSWORD);
  const result = await ctx.users.bulkWrite(
    DEMO_ACCOUNTS.map((demo) => {
      const now = platformNow();
      const user = { _id: new Types.ObjectId(), ...demo, passwordHash, activated: true, tokenVersion: 0, lastActiveAt: now };
      return {
        updateOne: {
          filter: { email: demo.email },
          // The dates only on insert: a restart leaves an existing account as it is.
          update: { $setOnInsert: { ...user, createdAt: now, updatedAt: now, ...userEventFields('auth.user.registered', user) } },
          upsert: true,
        },
      };
    }),
    { ordered: false },
  );
  return result.upsertedCount;
}

/**
 * A cluster's first admin: the accounts of AUTH_ADMIN_EMAILS get the Beheerder role (also when
 * they register later, see registration). Returns how many were promoted now.
 */
export async function promoteAdmins(ctx: Pick<AuthContext, 'users' | 'adminEmails'>): Promise<number> {
  let promoted = 0;
  for (const email of ctx.adminEmails) {
    const user = await ctx.users.findOne({ email, roles: { $ne: 'Beheerder' } });
    if (!user) continue;
    const roles: Role[] = [...user.roles, 'Beheerder'];
    const done = await ctx.users.updateOne(
      { _id: user._id, roles: { $ne: 'Beheerder' } },
      stamped({ $set: { roles, ...userEventFields('auth.user.updated', { ...user, roles }) } }),
    );
    promoted += done.modifiedCount;
  }
  return promoted;
}

