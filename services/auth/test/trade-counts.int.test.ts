// The public statistics' trade figures (trades, average rating, reviewers), fed by the trade
// service's `trade.member.counted` events through the consumer the assembled auth service starts:
// set only when newer, the active-listing count left alone.
import { eventRegistry } from '@ruilplein/contracts';
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
});
