import { HttpError, MESSAGES } from '@ruilplein/service-kit';
import type { Response } from 'express';
import type { RedisClientType } from 'redis';

/** How many attempts per window; the window starts with the first attempt (a fixed window in Redis). */
export interface Limit {
  points: number;
  windowSeconds: number;
}

export interface AuthLimits {
  /** Login attempts per account (failed ones; a successful login clears it). */
  loginPerAccount: Limit;
  /** Login attempts per client IP (failed ones). */
  loginPerIp: Limit;
  /** Activation and reset mails asked for one address. */
  mailPerAddress: Limit;
  /** Activation and reset mails asked from one IP. */
  mailPerIp: Limit;
  registerPerIp: Limit;
}

export const DEFAULT_LIMITS: AuthLimits = {
  loginPerAccount: { points: 5, windowSeconds: 15 * 60 },
  loginPerIp: { points: 50, windowSeconds: 15 * 60 },
  mailPerAddress: { points: 3, windowSeconds: 60 * 60 },
  mailPerIp: { points: 20, windowSeconds: 60 * 60 },
  registerPerIp: { points: 20, windowSeconds: 60 * 60 },
};

export type LimitRedis = Pick<RedisClientType, 'multi' | 'del' | 'decr'>;

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

/** A Redis counter per key and window. Redis unreachable: 503 (failing open would lift the brute-force guard). */
export function createLimiter(redis: LimitRedis, name: string, limit: Limit): Limiter {
  const key = (id: string) => `auth:limit:${name}:${id}`;
  const guard = <T>(p: Promise<T>) => p.catch((): never => { throw unavailable(); });
  return {
    async hit(id, res, message = tooManyAttempts) {
      const [count, , ttl] = (await guard(redis.multi().incr(key(id)).expire(key(id), limit.windowSeconds, 'NX').pTTL(key(id)).exec())) as unknown as [number, number, number];
      if (count <= limit.points) return;
      const seconds = Math.max(1, Math.ceil(Number(ttl) / 1000));
      res.setHeader('retry-after', seconds);
      throw new HttpError(429, message(Math.ceil(seconds / 60)));
    },
    async undo(id) {
      await guard(redis.decr(key(id)));
    },
    async reset(id) {
      await guard(redis.del(key(id)));
    },
  };
}
