import { createHmac, randomBytes } from 'node:crypto';
import type { RateLimitDef } from '@ruilplein/contracts';
import { countCall, HttpError, MESSAGES, type RateLimitRedis } from '@ruilplein/service-kit';
import type { Response } from 'express';
import type { RedisClientType } from 'redis';

/** How many attempts per window; the window starts with the first attempt (the kit's fixed window in Redis). */
export type Limit = Pick<RateLimitDef, 'points' | 'windowSeconds'>;

export interface AuthLimits {
  /**
   * Failed logins per account from one client address: the low ceiling. An attacker elsewhere
   * uses up only their own count, so the owner is not locked out (a successful login clears it).
   */
  loginPerAccountClient: Limit;
  /** Failed logins per account from all addresses together: the high ceiling against spraying from many addresses. */
  loginPerAccount: Limit;
  /** Failed logins per client address, across accounts. */
  loginPerIp: Limit;
  /** Activation and reset mails asked for one address. */
  mailPerAddress: Limit;
  /** Activation and reset mails asked from one IP. */
  mailPerIp: Limit;
  registerPerIp: Limit;
}

export const DEFAULT_LIMITS: AuthLimits = {
  loginPerAccountClient: { points: 5, windowSeconds: 15 * 60 },
  loginPerAccount: { points: 100, windowSeconds: 15 * 60 },
  loginPerIp: { points: 50, windowSeconds: 15 * 60 },
  mailPerAddress: { points: 3, windowSeconds: 60 * 60 },
  mailPerIp: { points: 20, windowSeconds: 60 * 60 },
  registerPerIp: { points: 20, windowSeconds: 60 * 60 },
};

export type LimitRedis = RateLimitRedis & Pick<RedisClientType, 'del' | 'decr'>;

const unavailable = () => new HttpError(503, MESSAGES.unavailable);

export interface Limiter {
  /** Counts one attempt; throws 429 (with Retry-After on `res`) once the window's points are used up. */
  hit(id: string, res: Response, message?: (minutes: number) => string): Promise<void>;
  /** Takes one attempt back (a login that succeeded). */
  undo(id: string): Promise<void>;
  /** Forgets every attempt of the window. */
  reset(id: string): Promise<void>;
}

export const tooManyAttempts = (minutes: number) => `Te veel pogingen. Probeer het over ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'} opnieuw.`;

/**
 * Limiter ids are HMAC-SHA256 under AUTH_LIMIT_KEY: Redis holds neither addresses (e-mail or IP)
 * nor hashes anyone could recompute from a guessed address.
 */
export function limitIds(secret: string) {
  const mac = (kind: string, ...parts: string[]) => createHmac('sha256', secret).update([kind, ...parts].join('\n')).digest('base64url');
  return {
    account: (email: string) => mac('account', email.toLowerCase()),
    client: (ip: string) => mac('client', ip),
    accountClient: (email: string, ip: string) => mac('account-client', email.toLowerCase(), ip),
  };
}
export type LimitIds = ReturnType<typeof limitIds>;

/**
 * Local mode without AUTH_LIMIT_KEY: a key derived from the signing key (stable across restarts
 * when that key is), else one made for this process.
 */
export function localLimitKey(signingKeyPem: string | undefined): string {
  return signingKeyPem ? createHmac('sha256', signingKeyPem).update('ruilplein auth limit key').digest('base64url') : randomBytes(32).toString('base64url');
}

/** A Redis counter per key and window. Redis unreachable: 503 (failing open would lift the brute-force guard). */
export function createLimiter(redis: LimitRedis, name: string, limit: Limit): Limiter {
  const key = (id: string) => `auth:limit:${name}:${id}`;
  const guard = <T>(p: Promise<T>) => p.catch((): never => { throw unavailable(); });
  return {
    async hit(id, res, message = tooManyAttempts) {
      // The kit's counter (a 503 when Redis is away); auth words the refusal in minutes.
      const counted = await countCall(redis, key(id), limit);
      if (counted.allowed) return;
      res.setHeader('retry-after', counted.retryAfter);
      throw new HttpError(429, message(Math.ceil(counted.retryAfter / 60)));
    },
    async undo(id) {
      await guard(redis.decr(key(id)));
    },
    async reset(id) {
      await guard(redis.del(key(id)));
    },
  };
}
