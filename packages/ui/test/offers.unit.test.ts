import { afterEach, describe, expect, it, vi } from 'vitest';
import { tradeApi } from '@ruilplein/contracts/browser';
import { offerCountQuery } from '../src/offers.ts';
import { apiKey } from '../src/query.ts';

const keyOfDay = (date: string) => apiKey(tradeApi.count, { query: { userId: 'u1', date } });

describe('offerCountQuery (the daily offer count)', () => {
  afterEach(() => vi.useRealTimers());

  // The offer page reads the count with useApi(tradeApi.count, …): the same key, so one cache entry.
  it("is the count route's query with the member and today's day in the Netherlands", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-04-18T10:00:00Z'));
    expect(offerCountQuery('u1').queryKey).toEqual(keyOfDay('2025-04-18'));
    // 23:30 UTC on 31 December is already New Year in Amsterdam; 22:30 UTC in summer is the next day too.
    vi.setSystemTime(new Date('2025-12-31T23:30:00Z'));
    expect(offerCountQuery('u1').queryKey).toEqual(keyOfDay('2026-01-01'));
    vi.setSystemTime(new Date('2025-06-30T22:30:00Z'));
    expect(offerCountQuery('u1').queryKey).toEqual(keyOfDay('2025-07-01'));
    vi.setSystemTime(new Date('2025-06-30T21:30:00Z'));
    expect(offerCountQuery('u1').queryKey).toEqual(keyOfDay('2025-06-30'));
  });

  it('takes a given day as is', () => {
    expect(offerCountQuery('u1', '2025-02-01').queryKey).toEqual(keyOfDay('2025-02-01'));
  });
});
