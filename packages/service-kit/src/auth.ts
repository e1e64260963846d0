import { ADMIN_ROLES, TOKEN_AUDIENCE, TOKEN_ISSUER, TokenClaimsSchema, type BlockClaim, type Role } from '@ruilplein/contracts';
import type { NextFunction, Request, Response } from 'express';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { forbidden, HttpError, unauthorized } from './errors.ts';

export interface Principal {
  userId: string;
  roles: Role[];
  /** Token version the token was issued with; compared with Redis for revocation. */
  tokenVersion: number;
  /** The block the token was issued under (contracts auth/blocks.ts); it may have ended since. */
  block?: BlockClaim;
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
    return { userId: claims.data.sub, roles: claims.data.roles, tokenVersion: claims.data.ver, ...(claims.data.blk && { block: claims.data.blk }) };
  };
}

export function bearerToken(req: Pick<Request, 'headers'>): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export const isAdmin = (p: Principal) => p.roles.some((r) => ADMIN_ROLES.includes(r));

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

/** Sets `req.principal` when a valid token is present; a present but invalid token is a 401. */
export function authenticate(verify: TokenVerifier) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req);
    if (token) req.principal = await verify(token);
    next();
  };
}

export function requireUser(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

export function requireAdmin(req: Request): Principal {
  const principal = requireUser(req);
  if (!isAdmin(principal)) throw forbidden();
  return principal;
}
