import type { Role } from '@ruilplein/contracts';
import { Types } from 'mongoose';
import type { AuthContext } from '../accounts/context.ts';
import { userEventFields } from '../accounts/events.ts';
import type { UserDoc } from '../accounts/model.ts';

/** Every demo account's password (local mode only; the seed never runs elsewhere). */
export const DEMO_PASSWORD = 'Ruilen123';
export const DEMO_ADMIN_EMAIL = 'beheerder@ruilplein.local';

type Demo = Pick<UserDoc, 'firstName' | 'lastName' | 'email' | 'city' | 'latitude' | 'longitude' | 'roles'>;

const member = (firstName: string, lastName: string, email: string, city: string, latitude: number, longitude: number, roles: Role[] = ['Gebruiker']): Demo => ({
  firstName,
  lastName,
  email,
  city,
  latitude,
  longitude,
  roles,
});

export const DEMO_ACCOUNTS: readonly Demo[] = [
  member('Bea', 'Beheer', DEMO_ADMIN_EMAIL, 'Utrecht', 52.0907, 5.1214, ['Gebruiker', 'Beheerder']),
  member('Sanne', 'Jansen', 'sanne@ruilplein.local', 'Utrecht', 52.0907, 5.1214),
  member('Daan', 'de Vries', 'daan@ruilplein.local', 'Amsterdam', 52.3676, 4.9041),
  member('Fatima', 'El Amrani', 'fatima@ruilplein.local', 'Rotterdam', 51.9244, 4.4777),
  member('Lotte', 'Peeters', 'lotte@ruilplein.local', 'Antwerpen', 51.2194, 4.4025, ['Gebruiker', 'Premium']),
];

/**
 * Local mode: activated demo members and an admin, inserted when missing and never overwritten
 * (a changed password or profile survives a restart); each insert announces the member.
 */
export async function seedDemoAccounts(ctx: Pick<AuthContext, 'users' | 'passwords'>): Promise<number> {
  const passwordHash = await ctx.passwords.hash(DEMO_PASSWORD);
  const result = await ctx.users.bulkWrite(
    DEMO_ACCOUNTS.map((demo) => {
      const user = { _id: new Types.ObjectId(), ...demo, passwordHash, activated: true, tokenVersion: 0, lastActiveAt: new Date() };
      return {
        updateOne: {
          filter: { email: demo.email },
          update: { $setOnInsert: { ...user, ...userEventFields('auth.user.registered', user) } },
          upsert: true,
          timestamps: true,
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
    const user = await ctx.users.findOne({ email, roles: { $ne: 'Beheerder' } }).lean();
    if (!user) continue;
    const roles: Role[] = [...user.roles, 'Beheerder'];
    const done = await ctx.users.updateOne(
      { _id: user._id, roles: { $ne: 'Beheerder' } },
      { $set: { roles, ...userEventFields('auth.user.updated', { ...user, roles }) } },
    );
    promoted += done.modifiedCount;
  }
  return promoted;
}

