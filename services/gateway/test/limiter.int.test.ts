import { randomUUID } from 'node:crypto';
import { testStores } from '@ruilplein/local/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedLimiter, type LimiterStore } from '../src/limiter.ts';

let redis: RedisClientType;

beforeAll(async () => {
  redis = createClient({ url: testStores().redisUrl });
  await redis.connect();
});

afterAll(async () => {
  await redis.close();
});

const limiters: SharedLimiter[] = [];
function replica(prefix: string, points: number, windowSeconds = 30, store: LimiterStore = redis) {
  const limiter = new SharedLimiter({ store, prefix, points, windowSeconds, flushMs: 20 });
  limiters.push(limiter);
  return limiter;
}
afterAll(() => limiters.forEach((l) => l.stop()));

/** Accepted hits out of `n` tries (0 means accepted). */
const accepted = (limiter: SharedLimiter, key: string, n: number) => Array.from({ length: n }, () => limiter.take(key)).filter((wait) => wait === 0).length;

describe('SharedLimiter', () => {
  it('refuses at the limit on its own, without waiting for Redis, with the seconds left', () => {
    const limiter = replica(`test:${randomUUID()}`, 3, 30);
    expect(accepted(limiter, 'a', 3)).toBe(3);
    const wait = limiter.take('a');
    expect(wait).toBeGreaterThanOrEqual(29);
    expect(wait).toBeLessThanOrEqual(30);
    expect(limiter.take('b')).toBe(0);
  });

  it('shares one count through Redis between gateways', async () => {
    const prefix = `test:${randomUUID()}`;
    const [a, b] = [replica(prefix, 10), replica(prefix, 10)];
    expect(accepted(a, 'client', 6)).toBe(6);
    await a.flush();
    expect(await redis.get(`${prefix}:client`)).toBe('6');
    // b learns the total with its own first flush; until then it counts only its own hits.
    expect(accepted(b, 'client', 1)).toBe(1);
    await b.flush();
    expect(accepted(b, 'client', 10)).toBe(3);
    await b.flush();
    expect(await redis.get(`${prefix}:client`)).toBe('10');
    expect(a.take('client')).toBe(0);
    await a.flush();
    expect(a.take('client')).toBeGreaterThan(0);
  });

  it('lets a client exceed the limit by at most what the other gateways accept before their next flush', async () => {
    const prefix = `test:${randomUUID()}`;
    const gateways = [replica(prefix, 20), replica(prefix, 20), replica(prefix, 20)];
    let total = 0;
    for (let round = 0; round < 5; round++) {
      for (const g of gateways) total += accepted(g, 'flood', 4);
      await Promise.all(gateways.map((g) => g.flush()));
    }
    // 3 gateways × 4 hits per flush interval: at most 2 × 4 beyond the limit.
    expect(total).toBeGreaterThanOrEqual(20);
    expect(total).toBeLessThanOrEqual(28);
    expect(Number(await redis.get(`${prefix}:flood`))).toBe(total);
  });

  it('starts a new window when the old one ends', async () => {
    const limiter = replica(`test:${randomUUID()}`, 2, 1);
    expect(accepted(limiter, 'k', 3)).toBe(2);
    await limiter.flush();
    await expect.poll(() => limiter.take('k'), { timeout: 3000, interval: 100 }).toBe(0);
  });

  it('counts on its own while Redis is away, window by window', async () => {
    const lost = createClient({ url: testStores().redisUrl });
    await lost.connect();
    await lost.close();
    const limiter = replica(`test:${randomUUID()}`, 2, 1, lost);
    expect(accepted(limiter, 'k', 2)).toBe(2);
    await limiter.flush();
    expect(limiter.take('k')).toBe(1);
    await expect.poll(() => limiter.take('k'), { timeout: 3000, interval: 100 }).toBe(0);
    expect(limiter.take('k')).toBe(0);
    await limiter.flush();
    expect(limiter.take('k')).toBe(1);
  });
});
