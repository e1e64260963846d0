// The public statistics' trade figures (trades, average rating, reviewers), fed by the trade
// service's `trade.member.counted` events through the consumer the assembled auth service starts:
// set only when newer, the active-listing count left alone.
import { eventRegistry, USER_MESSAGES, type ReliabilityFacts } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent } from '@ruilplein/service-kit';
import { body } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, userCollection } from '../src/accounts/model.ts';
import { userStatsCollection } from '../src/users/stats.ts';
import { authStores, startAuth, uniqueEmail, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;

beforeAll(async () => {
  stores = await authStores();
  // Other files' trade services publish counts too: this file need not wait for their backlog.
  await ensureStream(stores.bus, 'trade');
  await stores.bus.jsm.streams.purge('trade');
  auth = await startAuth(stores);
});
afterAll(async () => {
  await auth.stop();
  await stores.close();
});

const member = async () => {
  const user = await insertUser(userCollection(stores.db), { firstName: 'Daan', lastName: 'de Vries', email: uniqueEmail(), passwordHash: 'x', activated: true });
  return user._id.toHexString();
};
const counted = (userId: string, version: number, totalTrades: number, ratingSum: number, totalReviewers: number) =>
  createEvent(eventRegistry, 'trade.member.counted', { userId, version, totalTrades, ratingSum, totalReviewers });
const stats = async (id: string) => body(await fetch(`${auth.url}/api/user/public/stats/${id}`));

describe('trades and ratings in the public statistics', () => {
  it('takes each newer total and ignores older or repeated ones, keeping the active listings', async () => {
    const id = await member();
    await userStatsCollection(stores.db).insertOne({ _id: id, totalTrades: 0, ratingSum: 0, totalReviewers: 0, activeListings: 3, activeListingsVersion: 4 });
    await publishEvent(stores.bus, counted(id, 3, 2, 9, 2));
    await expect.poll(async () => (await stats(id)).totalTrades, { timeout: 10_000 }).toBe(2);
    expect(await stats(id)).toEqual({ totalTrades: 2, averageRating: 4.5, totalReviewers: 2, activeListings: 3 });

    // Older (arriving late) changes nothing; the same event again neither.
    const later = counted(id, 7, 3, 12.5, 3);
    await publishEvent(stores.bus, counted(id, 2, 1, 0, 0));
    await publishEvent(stores.bus, later);
    await expect.poll(async () => (await stats(id)).totalTrades, { timeout: 10_000 }).toBe(3);
    expect(await stats(id)).toEqual({ totalTrades: 3, averageRating: 4.17, totalReviewers: 3, activeListings: 3 });
    await publishEvent(stores.bus, { ...later, id: crypto.randomUUID(), payload: { ...later.payload, totalTrades: 9 } });
    await publishEvent(stores.bus, counted(id, 8, 4, 12.5, 3));
    await expect.poll(async () => (await stats(id)).totalTrades, { timeout: 10_000 }).toBe(4);
    expect(await userStatsCollection(stores.db).findOne({ _id: id })).toMatchObject({ tradeStatsVersion: 8, activeListingsVersion: 4, activeListings: 3 });
  });

  it('starts the statistics of a member without any, and drops totals of accounts that do not exist', async () => {
    const id = await member();
    const nobody = new Types.ObjectId().toHexString();
    await publishEvent(stores.bus, counted(nobody, 1, 1, 5, 1));
    await publishEvent(stores.bus, counted('geen-id', 1, 1, 5, 1));
    await publishEvent(stores.bus, counted(id, 1, 1, 4.5, 1));
    await expect.poll(async () => (await stats(id)).totalTrades, { timeout: 10_000 }).toBe(1);
    expect(await stats(id)).toEqual({ totalTrades: 1, averageRating: 4.5, totalReviewers: 1, activeListings: 0 });
    expect(await userStatsCollection(stores.db).findOne({ _id: nobody })).toBeNull();
  });

  it('keeps the reliability facts that come with the totals and answers the score computed now', async () => {
    const id = await member();
    const reliability = async (who: string) => {
      const res = await fetch(`${auth.url}/api/user/${who}/reliability`);
      return { status: res.status, body: await body(res) };
    };
    // Nothing yet: no rates, a sample of 0 ('Nieuw lid').
    expect(await reliability(id)).toEqual({ status: 200, body: { responseRate: null, medianResponseMinutes: null, completionRate: null, completedTrades: 0, sample: 0 } });
    const openSince = new Date(Date.now() - 72 * 3600_000).toISOString();
    const facts: ReliabilityFacts = { answeredInTime: 3, answeredLate: 0, endedUnanswered: 0, openSince: [openSince], responseMinutes: [30, 200, 60], completed: 4, cancelledBySelf: 0, trades: 3, sample: 7 };
    await publishEvent(stores.bus, createEvent(eventRegistry, 'trade.member.counted', { userId: id, version: 2, totalTrades: 4, ratingSum: 0, totalReviewers: 0, reliability: facts }));
    await expect.poll(async () => (await reliability(id)).body.sample, { timeout: 10_000 }).toBe(8);
    // The open offer is three days old: late by now.
    expect((await reliability(id)).body).toEqual({ responseRate: 0.75, medianResponseMinutes: 60, completionRate: 1, completedTrades: 3, sample: 8 });
    // An older event without facts leaves them; a newer one without facts too (it names none).
    await publishEvent(stores.bus, counted(id, 3, 5, 0, 0));
    await expect.poll(async () => (await stats(id)).totalTrades, { timeout: 10_000 }).toBe(5);
    expect((await reliability(id)).body.completedTrades).toBe(3);
    // Someone who is nobody: 404; a malformed id: 400 in Dutch.
    expect((await reliability(new Types.ObjectId().toHexString())).status).toBe(404);
    const bad = await reliability('geen-id');
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');

    // The owners of a page of cards in one question: in the order asked, once each, nobody left out.
    const other = await member();
    const many = async (ids: string) => {
      const res = await fetch(`${auth.url}/api/user/reliability?ids=${ids}`);
      return { status: res.status, body: await body(res) };
    };
    const nobody = new Types.ObjectId().toHexString();
    expect(await many(`${other},${id.toUpperCase()},${nobody},${other}`)).toEqual({
      status: 200,
      body: [
        { userId: other, responseRate: null, medianResponseMinutes: null, completionRate: null, completedTrades: 0, sample: 0 },
        { userId: id, responseRate: 0.75, medianResponseMinutes: 60, completionRate: 1, completedTrades: 3, sample: 8 },
      ],
    });
    for (const wrong of ['', 'geen-id', Array.from({ length: 51 }, () => new Types.ObjectId().toHexString()).join(',')]) {
      const res = await many(wrong);
      expect(res.status, wrong.slice(0, 30)).toBe(400);
      expect(res.body.message).toBe(USER_MESSAGES.invalidUserIds);
    }
  });
});
