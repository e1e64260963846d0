import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, tokenVersionKey, type Role } from '@ruilplein/contracts';
import { createTokenVerifier, HttpError, MESSAGES, revokeTokenVersion, unauthorized, wallClockMs, type TokenVerifier } from '@ruilplein/service-kit';
import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, SignJWT, type JWK } from 'jose';
import type { RedisClientType } from 'redis';
import { suspensionClaimOf } from './suspension.ts';
import { stamped, userIdOf, type UserCollection, type UserDoc } from './model.ts';

/** The Redis commands tokens need; any connected client of the `redis` package fits. */
export type Redis = Pick<RedisClientType, 'get' | 'set' | 'incr' | 'publish' | 'isReady'>;

export interface SigningKey {
  alg: 'EdDSA' | 'ES256' | 'RS256';
  kid: string;
  privateKey: KeyObject;
  /** The public half as served in the JWKS. */
  jwk: JWK;
}

const algorithmOf = (key: KeyObject): SigningKey['alg'] => {
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  if (key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048) return 'RS256';
  throw new Error('AUTH_JWT_PRIVATE_KEY must be an Ed25519, P-256 or RSA (2048+ bits) private key');
};

/** Reads a PEM private key (PKCS#8 or SEC1/PKCS#1); its key id is the RFC 7638 thumbprint of the public key. */
export async function loadSigningKey(pem: string): Promise<SigningKey> {
  const privateKey = createPrivateKey(pem);
  const alg = algorithmOf(privateKey);
  const publicJwk = await exportJWK(createPublicKey(privateKey));
  const kid = await calculateJwkThumbprint(publicJwk);
  return { alg, kid, privateKey, jwk: { ...publicJwk, kid, alg, use: 'sig' } };
}

/** The JWKS document: what the gateway and every service fetch through AUTH_JWKS_URL. */
export const jwksOf = (keys: SigningKey[]) => ({ keys: keys.map((k) => k.jwk) });

const redisDown = () => new HttpError(503, MESSAGES.unavailable);

/**
 * Revokes every token the user holds: the gateway (and auth) refuse tokens whose `ver` is below
 * the version in Redis. With `users`, the new version is also kept in the user's document, so a
 * Redis that lost its data cannot bring revoked tokens back (see `currentVersion`). The revocation is
 * announced at once, so open websockets (chat's hub) are closed too (the kit's revocations.ts).
 */
export async function revokeTokens(redis: Redis, userId: string, users?: UserCollection): Promise<number> {
  const version = await revokeTokenVersion(redis, userId);
  await users?.updateOne({ _id: userIdOf(userId) }, stamped({ $max: { tokenVersion: version } }));
  return version;
}

/** The version new tokens carry: Redis' value, restored from the document if Redis has less. */
async function currentVersion(redis: Redis, userId: string, stored: number): Promise<number> {
  const inRedis = Number((await redis.get(tokenVersionKey(userId))) ?? 0);
  if (inRedis >= stored) return inRedis;
  await redis.set(tokenVersionKey(userId), String(stored));
  return stored;
}

type TokenUser = { _id: { toString(): string }; roles: Role[]; tokenVersion: number } & Partial<Pick<UserDoc, 'suspension' | 'block'>>;

export interface TokenIssuer {
  /** A signed access token for this user, valid for the configured lifetime. */
  issue(user: TokenUser): Promise<string>;
  /**
   * The token version the user's tokens carry now (Redis, restored from the document when Redis
   * has less). A refresh token is bound to it: once it moves on, the refresh token is dead.
   */
  version(user: Pick<TokenUser, '_id' | 'tokenVersion'>): Promise<number>;
  /** An access token with exactly this version: a refresh signs with its family's, never a newer one. */
  sign(user: Pick<TokenUser, '_id' | 'roles' | 'suspension' | 'block'>, version: number): Promise<string>;
  /** Signature, expiry, issuer, audience and revocation; auth's own routes use it. */
  verify: TokenVerifier;
}

export function createTokenIssuer(options: { key: SigningKey; redis: Redis; ttlSeconds: number }): TokenIssuer {
  const { key, redis, ttlSeconds } = options;
  const checkSignature = createTokenVerifier(createLocalJWKSet(jwksOf([key])));
  const issuer: TokenIssuer = {
    async version(user) {
      if (!redis.isReady) throw redisDown();
      return currentVersion(redis, user._id.toString(), user.tokenVersion).catch(() => {
        throw redisDown();
      });
    },
    sign(user, ver) {
      const sus = suspensionClaimOf(user);
      return new SignJWT({ roles: user.roles, ver, ...(sus && { sus }) })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
        .setSubject(user._id.toString())
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(wallClockMs() / 1000) + ttlSeconds)
        .sign(key.privateKey);
    },
    async issue(user) {
      return issuer.sign(user, await issuer.version(user));
    },
    async verify(token) {
      const principal = await checkSignature(token);
      // Fail closed like the gateway: without Redis a revoked token cannot be told apart.
      if (!redis.isReady) throw redisDown();
      const current = await redis.get(tokenVersionKey(principal.userId)).catch(() => {
        throw redisDown();
      });
      if (current !== null && Number(current) > principal.tokenVersion) throw unauthorized();
      return principal;
    },
  };
  return issuer;
}
