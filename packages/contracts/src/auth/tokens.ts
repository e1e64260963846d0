import { z } from 'zod';
import { SUSPENSION_REASONS, type SuspensionClaim } from './suspensions.ts';
import { ROLES } from './rules.ts';

export const RoleSchema = z.enum(ROLES);

const SuspensionClaimSchema = z.object({ r: z.enum(SUSPENSION_REASONS), u: z.number().int().positive().optional() });

export const TOKEN_ISSUER = 'ruilplein-auth';
export const TOKEN_AUDIENCE = 'ruilplein';

/** Claims of the access token auth issues; `ver` is compared with the user's token version in Redis. */
export const TokenClaimsSchema = z.object({
  sub: z.string().min(1),
  roles: z.array(RoleSchema),
  ver: z.number().int().nonnegative(),
  /** Present while the member is suspended (auth/suspensions.ts): reason, and the end in epoch seconds. */
  sus: SuspensionClaimSchema.optional(),
  /**
   * The same claim under its name before the rename: tokens issued before the move carry it and are
   * honoured until they expire (minutes). Drop it one token lifetime after every auth replica signs `sus`.
   */
  blk: SuspensionClaimSchema.optional(),
});
export type TokenClaims = z.infer<typeof TokenClaimsSchema>;

/** The suspension a token was issued under, whichever name carries it. */
export const suspensionClaimOf = (claims: Pick<TokenClaims, 'sus' | 'blk'>): SuspensionClaim | undefined => claims.sus ?? claims.blk;

/** Redis key holding a user's current token version; tokens with a lower `ver` are revoked. */
export const tokenVersionKey = (userId: string) => `auth:token-version:${userId}`;
