import type { RateLimitDef } from '@ruilplein/contracts';
import type { RedisClientType } from 'redis';
import { HttpError, MESSAGES } from './errors.ts';

/** The part of a Redis client a limit needs (any `createClient()` result fits). */
export type RateLimitRedis = Pick<RedisClientType, 'eval'>;

/** One count per key and window; the window starts with the first call (a fixed window). */
const FIXED_WINDOW = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

export interface LimitResult {
  /** Calls counted in the current window, this one included. */
  count: number;
  allowed: boolean;
  /** Seconds until the window ends (at least 1). */
  retryAfter: number;
}

/**
 * Counts one call against `points` per `windowSeconds` under `key`. Redis unreachable or slow is a
 * 503: failing open would lift the limit exactly when someone floods the service.
 */
export async function countCall(redis: RateLimitRedis, key: string, limit: Pick<RateLimitDef, 'points' | 'windowSeconds'>): Promise<LimitResult> {
  let reply: unknown;
  try {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('redis timed out')), 2000)));
    reply = await Promise.race([redis.eval(FIXED_WINDOW, { keys: [key], arguments: [String(limit.windowSeconds * 1000)] }), late]).finally(() => clearTimeout(timer));
  } catch {
    throw new HttpError(503, MESSAGES.unavailable);
  }
  const [count, ttl] = (reply as [number, number]).map(Number) as [number, number];
  return { count, allowed: count <= limit.points, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
}

/** Redis key of a declared limit: routes sharing a `name` share the counter. */
export function rateLimitKey(service: string, name: string, per: RateLimitDef['per'], id: string): string {
  return `ratelimit:${service}:${name}:${per}:${id}`;
}

/** Over the limit: the Dutch 429 with `Retry-After` (set on the answer by the caller). */
export const tooManyRequests = () => new HttpError(429, MESSAGES.tooManyRequests);
