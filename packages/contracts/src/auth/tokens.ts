import { z } from 'zod';
import { BLOCK_REASONS } from './blocks.ts';
import { ROLES } from './rules.ts';

export const RoleSchema = z.enum(ROLES);

export const TOKEN_ISSUER = 'ruilplein-auth';
export const TOKEN_AUDIENCE = 'ruilplein';

/** Claims of the access token auth issues; `ver` is compared with the user's token version in Redis. */
export const TokenClaimsSchema = z.object({
  sub: z.string().min(1),
  roles: z.array(RoleSchema),
  ver: z.number().int().nonnegative(),
  /** Present while the member is blocked (auth/blocks.ts): reason, and the end in epoch seconds. */
  blk: z.object({ r: z.enum(BLOCK_REASONS), u: z.number().int().positive().optional() }).optional(),
});
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

/** Redis key holding a user's current token version; tokens with a lower `ver` are revoked. */
export const tokenVersionKey = (userId: string) => `auth:token-version:${userId}`;
