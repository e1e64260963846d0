import { z } from 'zod';

export const ROLES = ['Gebruiker', 'Premium', 'Moderator', 'Beheerder'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;
export const ADMIN_ROLES: readonly Role[] = ['Moderator', 'Beheerder'];

export const TOKEN_ISSUER = 'ruilplein-auth';
export const TOKEN_AUDIENCE = 'ruilplein';

/** Claims of the access token auth issues; `ver` is compared with the user's token version in Redis. */
export const TokenClaimsSchema = z.object({
  sub: z.string().min(1),
  roles: z.array(RoleSchema),
  ver: z.number().int().nonnegative(),
});
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

/** Redis key holding a user's current token version; tokens with a lower `ver` are revoked. */
export const tokenVersionKey = (userId: string) => `auth:token-version:${userId}`;
