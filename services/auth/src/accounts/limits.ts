import { createHmac, randomBytes } from 'node:crypto';
import { AUTH_MESSAGES, LOGIN_SLOWDOWN, type LoginSlowdown, type RateLimitDef } from '@ruilplein/contracts';
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
  /** Failed logins per account across all addresses: past a few, every attempt waits (createSlowdown). */
  loginSlowdown: LoginSlowdown;
}

/** The limits counted by `createLimiter` (all but the slow-down). */
export type LimitName = Exclude<keyof AuthLimits, 'loginSlowdown'>;

export const DEFAULT_LIMITS: AuthLimits = {
  loginPerAccountClient: { points: 5, windowSeconds: 15 * 60 },
  loginPerAccount: { points: 100, windowSeconds: 15 * 60 },
  loginPerIp: { points: 50, windowSeconds: 15 * 60 },
  mailPerAddress: { points: 3, windowSeconds: 60 * 60 },
  mailPerIp: { points: 20, windowSeconds: 60 * 60 },
  registerPerIp: { points: 20, windowSeconds: 60 * 60 },
  loginSlowdown: LOGIN_SLOWDOWN,
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

/**
 * Admits one login attempt for an account (KEYS[1], a hash: `f` failures, `u` no attempt before
 * this time in ms) or answers the milliseconds to wait. An admitted attempt counts as a failure at
 * once (taken back on success), so parallel guesses cannot all pass one check; from the
 * `free`-th failure on, the next attempt waits `first` × 2^(failures − free) ms, at most `max`.
 * Answers {wait, the previous `u`} so a success can put `u` back.
 */
const GATE = `
local now = tonumber(ARGV[1])
local f = tonumber(redis.call('HGET', KEYS[1], 'f') or '0')
local u = tonumber(redis.call('HGET', KEYS[1], 'u') or '0')
if now < u then return {u - now, u} end
f = f + 1
redis.call('HSET', KEYS[1], 'f', f)
local free = tonumber(ARGV[2])
if f >= free then
  local d = tonumber(ARGV[3]) * (2 ^ (f - free))
  if d > tonumber(ARGV[4]) then d = tonumber(ARGV[4]) end
  redis.call('HSET', KEYS[1], 'u', now + d)
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {0, u}
`;

/** A success: the attempt was no failure, and the wait it set is put back. */
const UNDO = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'f', -1)
if tonumber(ARGV[1]) > 0 then redis.call('HSET', KEYS[1], 'u', ARGV[1]) else redis.call('HDEL', KEYS[1], 'u') end
return 1
`;

interface Slowdown {
  /** Whether the account logged in from this client (an `accountClient` id) lately: not slowed. */
  known(pair: string): Promise<boolean>;
  /** Admits an attempt for the account or throws 429 with Retry-After; answers what `succeeded` needs. */
  admit(account: string, res: Response, nowMs: number): Promise<number>;
  /** The attempt admitted with `admitted` logged in: not a failure; the client is known from now on. */
  succeeded(account: string, pair: string, admitted: number | undefined): Promise<void>;
  /** A new password: the guesses at the old one no longer slow anyone. */
  clear(account: string): Promise<void>;
}

type SlowdownRedis = Pick<RedisClientType, 'eval' | 'exists' | 'set' | 'del'>;

/**
 * The per-account slow-down across client addresses (LOGIN_SLOWDOWN in contracts): an attacker
 * spreading guesses over many addresses gets a few, then one per growing wait; the owner gets in
 * from an address they logged in from before, after the wait from elsewhere, or by a reset mail.
 */
export function createSlowdown(redis: SlowdownRedis, rules: LoginSlowdown): Slowdown {
  const slowKey = (account: string) => `auth:slow:${account}`;
  const knownKey = (pair: string) => `auth:known:${pair}`;
  const guard = <T>(p: Promise<T>) => p.catch((): never => { throw unavailable(); });
  return {
    async known(pair) {
      return (await guard(redis.exists(knownKey(pair)))) === 1;
    },
    async admit(account, res, nowMs) {
      const args = [nowMs, rules.freeFailures, rules.firstDelaySeconds * 1000, rules.maxDelaySeconds * 1000, rules.windowSeconds * 1000].map(String);
      const [wait, previous] = (await guard(redis.eval(GATE, { keys: [slowKey(account)], arguments: args }))) as [number, number];
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        res.setHeader('retry-after', seconds);
        throw new HttpError(429, AUTH_MESSAGES.loginSlowedDown(Math.ceil(seconds / 60)));
      }
      return previous;
    },
    async succeeded(account, pair, admitted) {
      if (admitted !== undefined) await guard(redis.eval(UNDO, { keys: [slowKey(account)], arguments: [String(admitted)] }));
      await guard(redis.set(knownKey(pair), '1', { EX: rules.knownClientDays * 24 * 60 * 60 }));
    },
    async clear(account) {
      await guard(redis.del(slowKey(account)));
    },
  };
}
