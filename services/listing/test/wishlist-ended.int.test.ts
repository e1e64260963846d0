// `listing.wishlist.ended` on real stores: a wishlisted listing that is traded or removed is
// announced once, with the members who wished for it, in the same write as the change that ends it
// (so also when the process stops right after that write).
import { eventRegistry, WISHLIST_ENDED_MAX_USERS, type WishlistEndedEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { offerEvent } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingContext } from '../src/app.ts';
import type { CategoryCache } from '../src/categories/cache.ts';
import { deleteListing } from '../src/listings/lifecycle.ts';
import { call, createListing, earlier, itemFields, logger, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
let owner: TestMember;
let partner: TestMember;

beforeAll(async () => {
  h = await startListing();
  [owner, partner] = await Promise.all([h.member({ firstName: 'Daan' }), h.member({ firstName: 'Piet' })]);
});
afterAll(async () => {
  await h?.close();
});

const ended = (listingId: string) => h.events.filter((e) => e.type === 'listing.wishlist.ended' && (e.payload as WishlistEndedEvent).listingId === listingId).map((e) => e.payload as WishlistEndedEvent);
const wish = async (listingId: string, member: TestMember) => expect((await call(h.url, `/api/wishlist/add/${listingId}`, { method: 'POST', token: member.token })).status).toBe(200);
/** Wishlist entries written as the wishlist writes them, for members who need no token. */
const wishers = async (listingId: string, count: number) => {
  const ids = Array.from({ length: count }, () => new Types.ObjectId().toHexString());
  await h.db.collection('wishlist').insertMany(ids.map((userId) => ({ _id: new Types.ObjectId().toHexString() as never, userId, listingId, createdAt: new Date(0) })));
  return ids;
};
const remove = async (listingId: string) => expect((await call(h.url, `/api/listing/delete/${listingId}`, { method: 'DELETE', token: owner.token })).status).toBe(200);
const complete = (listingId: string) =>
  publishEvent(h.adminBus, createEvent(eventRegistry, 'trade.offer.completed', offerEvent({ senderId: partner.id, receiverId: owner.id, listingId, version: 4, status: 'Completed', senderConfirmed: true, receiverConfirmed: true })));
/** A listing placed (and announced) now: everything the relay published before is on the stream by then. */
async function settled() {
  const marker = await createListing(h.url, owner.token, itemFields({ title: 'Markering' }));
  await waitFor(() => h.events.some((e) => e.type === 'listing.listing.created' && (e.payload as { id: string }).id === marker.id), 'the marker listing announced');
}

describe('listing.wishlist.ended', () => {
  it('traded: once, to those who wished for it but not the trade’s parties; not again on redelivery or when it is deleted after', async () => {
    const [sanne, lotte] = await Promise.all([h.member({ firstName: 'Sanne' }), h.member({ firstName: 'Lotte' })]);
    const bike = await earlier(7, () => createListing(h.url, owner.token, itemFields({ title: 'Fiets' })));
    await wish(bike.id, sanne);
    await wish(bike.id, lotte);
    await wish(bike.id, partner); // the one who gets it in the trade

    await complete(bike.id);
    await waitFor(() => ended(bike.id).length === 1, 'wishlist ended');
    const [event] = ended(bike.id);
    expect({ ...event, userIds: [...event!.userIds].sort() }).toEqual({ listingId: bike.id, title: 'Fiets', reason: 'traded', userIds: [sanne.id, lotte.id].sort(), version: 2, at: expect.any(String) });

    await complete(bike.id); // the same completion again
    await remove(bike.id); // a traded listing deleted afterwards: its end was told already
    await settled();
    expect(ended(bike.id)).toHaveLength(1);
  });

  it('removed: once when the owner deletes it; nothing for a listing nobody wished for', async () => {
    const sanne = await h.member({ firstName: 'Sanne' });
    const lamp = await earlier(7, () => createListing(h.url, owner.token, itemFields({ title: 'Schemerlamp' })));
    const chair = await createListing(h.url, owner.token, itemFields({ title: 'Stoel' }));
    await wish(lamp.id, sanne);
    await remove(lamp.id);
    await remove(chair.id);
    await waitFor(() => ended(lamp.id).length === 1, 'wishlist ended');
    expect(ended(lamp.id)[0]).toEqual({ listingId: lamp.id, title: 'Schemerlamp', reason: 'removed', userIds: [sanne.id], version: 2, at: expect.any(String) });
    await settled();
    expect(ended(lamp.id)).toHaveLength(1);
    expect(ended(chair.id)).toEqual([]);
  });

  it('removed with the owner’s account', async () => {
    const leaving = await h.member({ firstName: 'Vertrekt' });
    const table = await createListing(h.url, leaving.token, itemFields({ title: 'Eettafel' }));
    const [wisher] = await wishers(table.id, 1);
    await leaving.remove();
    await waitFor(() => ended(table.id).length === 1, 'wishlist ended');
    expect(ended(table.id)[0]).toMatchObject({ reason: 'removed', userIds: [wisher], title: 'Eettafel' });
  });

  it(`splits many wishers over events of at most ${WISHLIST_ENDED_MAX_USERS}, every one once`, async () => {
    const popular = await createListing(h.url, owner.token, itemFields({ title: 'Gewild' }));
    const ids = await wishers(popular.id, WISHLIST_ENDED_MAX_USERS + 1);
    await remove(popular.id);
    await waitFor(() => ended(popular.id).length === 2, 'two events');
    expect(ended(popular.id).map((e) => e.userIds.length).sort((a, b) => a - b)).toEqual([1, WISHLIST_ENDED_MAX_USERS]);
    expect(ended(popular.id).flatMap((e) => e.userIds).sort()).toEqual([...ids].sort());
  });

  it('is published once when the process stopped right after the write, before publishing', async () => {
    const radio = await createListing(h.url, owner.token, itemFields({ title: 'Radio' }));
    const ids = await wishers(radio.id, 2);
    // As a replica that died after its write: the deletion and the events are stored, nobody kicked a relay.
    const dead = listingContext(h.db, undefined as unknown as CategoryCache, { kick: () => {} }, logger);
    expect(await deleteListing(dead, radio.id)).toBeDefined();
    const stored = await h.db.collection('listings').findOne({ _id: radio.id as never });
    expect(Object.values(stored?.outbox ?? {}).map((e) => (e as { event: { type: string } }).event.type).sort()).toEqual(['listing.listing.deleted', 'listing.wishlist.ended']);
    // The next process's relay publishes them at its start.
    await h.restart();
    await waitFor(() => ended(radio.id).length === 1, 'wishlist ended after the restart');
    await settled();
    expect(ended(radio.id)).toHaveLength(1);
    expect([...ended(radio.id)[0]!.userIds].sort()).toEqual([...ids].sort());
  });
});
