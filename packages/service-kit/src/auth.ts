import { hasAdminRole, TOKEN_AUDIENCE, TOKEN_ISSUER, suspensionClaimOf, TokenClaimsSchema, type Role, type SuspensionClaim } from '@ruilplein/contracts';
import type { Request } from 'express';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { HttpError, unauthorized } from './errors.ts';

export interface Principal {
  userId: string;
  roles: Role[];
  /** Token version the token was issued with; compared with Redis for revocation. */
  tokenVersion: number;
  /** The suspension the token was issued under (contracts auth/suspensions.ts); it may have ended since. */
  suspension?: SuspensionClaim;
}

/** Asymmetric algorithms only: `none` and HMAC tokens are rejected before any key is looked at. */
const ALGORITHMS = ['EdDSA', 'ES256', 'RS256'];

export type TokenVerifier = (token: string) => Promise<Principal>;

/** Verifies access tokens against the auth service's JWKS (fetched lazily, cached, refreshed on unknown kid). */
export function createTokenVerifier(jwks: string | JWTVerifyGetKey): TokenVerifier {
  const keys = typeof jwks === 'string' ? createRemoteJWKSet(new URL(jwks), { cacheMaxAge: 10 * 60_000 }) : jwks;
  return async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: ALGORITHMS,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
      }));
    } catch (err) {
      // The key set itself being unreachable is our fault, not the member's.
      if (err instanceof joseErrors.JWKSTimeout || (err instanceof Error && /fetch failed|ECONNREFUSED/.test(err.message))) {
        throw new HttpError(503, 'Inloggegevens kunnen nu niet worden gecontroleerd. Probeer het later opnieuw.');
      }
      throw unauthorized();
    }
    const claims = TokenClaimsSchema.safeParse(payload);
    if (!claims.success) throw unauthorized();
    // `sus`, or `blk` in a token issued before the rename (honoured until it expires).
    const suspension = suspensionClaimOf(claims.data);
    return { userId: claims.data.sub, roles: claims.data.roles, tokenVersion: claims.data.ver, ...(suspension && { suspension }) };
  };
}

export function bearerToken(req: Pick<Request, 'headers'>): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export const isAdmin = (p: Principal) => hasAdminRole(p);

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}
