// The public statistics' active-listing count, fed by the listing service's `listing.owner.counted`
// events through the consumer the assembled auth service starts: set only when newer.
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
  // Other files' listing services publish counts too: this file looks at its own members only,
  // but need not wait for a backlog of theirs.
  await ensureStream(stores.bus, 'listing');
  await stores.bus.jsm.streams.purge('listing');
  auth = await startAuth(stores);
});
afterAll(async () => {
  await auth.stop();
  await stores.close();
});

const member = async () => {
  const user = await insertUser(userCollection(stores.db), { firstName: 'Sanne', lastName: 'Jansen', email: uniqueEmail(), passwordHash: 'x', activated: true });
  return user._id.toHexString();
};
const counted = (userId: string, version: number, activeListings: number) => createEvent(eventRegistry, 'listing.owner.counted', { userId, version, activeListings });
const stats = async (id: string) => body(await fetch(`${auth.url}/api/user/public/stats/${id}`));

describe('active listings in the public statistics', () => {
  it('takes each newer count and ignores older or repeated ones', async () => {
    const id = await member();
    await userStatsCollection(stores.db).insertOne({ _id: id, totalTrades: 2, ratingSum: 9, totalReviewers: 2, activeListings: 0 });
    await publishEvent(stores.bus, counted(id, 2, 3));
    await expect.poll(async () => (await stats(id)).activeListings, { timeout: 10_000 }).toBe(3);
    expect(await stats(id)).toEqual({ totalTrades: 2, averageRating: 4.5, totalReviewers: 2, activeListings: 3 });

    // Older (arriving late) changes nothing; the same event again neither.
    const later = counted(id, 5, 4);
    await publishEvent(stores.bus, counted(id, 1, 1));
    await publishEvent(stores.bus, later);
    await expect.poll(async () => (await stats(id)).activeListings, { timeout: 10_000 }).toBe(4);
    await publishEvent(stores.bus, { ...later, id: crypto.randomUUID(), payload: { ...later.payload, activeListings: 9 } });
    await publishEvent(stores.bus, counted(id, 6, 0));
    await expect.poll(async () => (await stats(id)).activeListings, { timeout: 10_000 }).toBe(0);
    expect(await userStatsCollection(stores.db).findOne({ _id: id })).toMatchObject({ activeListingsVersion: 6, totalTrades: 2 });
  });

  it('starts the statistics of a member without any, and drops counts of accounts that do not exist', async () => {
    const id = await member();
    const nobody = new Types.ObjectId().toHexString();
    await publishEvent(stores.bus, counted(nobody, 1, 2));
    await publishEvent(stores.bus, counted('geen-id', 1, 2));
    await publishEvent(stores.bus, counted(id, 1, 2));
    await expect.poll(async () => (await stats(id)).activeListings, { timeout: 10_000 }).toBe(2);
    expect(await stats(id)).toEqual({ totalTrades: 0, averageRating: 0, totalReviewers: 0, activeListings: 2 });
    expect(await userStatsCollection(stores.db).findOne({ _id: nobody })).toBeNull();
  });
});
