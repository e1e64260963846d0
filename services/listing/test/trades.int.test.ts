// What the trade service's events change here, on real stores: a completed trade makes its
// listings inactive (announced, their places given back), and an offer made on a listing is
// interest for 'Trending in je buurt'.
import { eventRegistry, ListingCardSchema, type OfferEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { body, offerEvent } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, createListing, itemFields, placeListing, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
beforeAll(async () => {
  h = await startListing();
  await waitFor(async () => (await fetch(`${h.url}/readyz`)).status === 200, 'search ready');
});
afterAll(async () => {
  await h?.close();
});

/** A completed offer's state (trade.offer.completed) unless `over` says otherwise. */
const offer = (over: Partial<OfferEvent> & Pick<OfferEvent, 'senderId' | 'receiverId' | 'listingId'>): OfferEvent =>
  offerEvent({ version: 4, status: 'Completed', senderConfirmed: true, receiverConfirmed: true, ...over });
const active = async (member: TestMember, id: string) => ((await body(await call(h.url, '/api/listing/my', { token: member.token }))) as { id: string; isActive: boolean }[]).find((l) => l.id === id)?.isActive;
const updatesOf = (id: string) => h.events.filter((e) => e.type === 'listing.listing.updated' && (e.payload as { id: string }).id === id);

describe('trade.offer.completed', () => {
  it('makes every listing of the trade inactive, announced, and gives its place back; others stay', async () => {
    const [sender, receiver, third] = await Promise.all([h.member(), h.member(), h.member()]);
    const wanted = await createListing(h.url, receiver.token, itemFields({ title: 'Boormachine' }));
    const kept = await createListing(h.url, receiver.token, itemFields({ title: 'Eettafel' }));
    const given = await createListing(h.url, sender.token, itemFields({ title: 'Stadsfiets' }));
    const foreign = await createListing(h.url, third.token, itemFields({ title: 'Naaimachine' }));
    const trade = offer({ senderId: sender.id, receiverId: receiver.id, listingId: wanted.id, listingIds: [wanted.id, given.id, foreign.id] });
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'trade.offer.completed', trade));

    await waitFor(async () => (await active(receiver, wanted.id)) === false && (await active(sender, given.id)) === false, 'traded listings inactive');
    expect(await active(receiver, kept.id)).toBe(true);
    // Not a party's listing: untouched.
    expect(await active(third, foreign.id)).toBe(true);
    await waitFor(() => updatesOf(wanted.id).length === 1 && updatesOf(given.id).length === 1, 'deactivations announced');
    expect(updatesOf(wanted.id)[0]!.payload).toMatchObject({ active: false, version: 2, ownerId: receiver.id });
    // The places are given back: the counts announced for the public statistics go down.
    const counts = (userId: string) => h.events.filter((e) => e.type === 'listing.owner.counted' && (e.payload as { userId: string }).userId === userId).map((e) => (e.payload as { activeListings: number }).activeListings);
    await waitFor(() => counts(receiver.id).at(-1) === 1 && counts(sender.id).at(-1) === 0, 'counts announced');
    expect(counts(receiver.id)).toEqual([1, 2, 1]);

    // Inactive listings leave the inventory (offers) too.
    const inventory = (await body(await call(h.url, `/api/listing/inventory/${receiver.id}`, { token: sender.token }))) as { listingID: string }[];
    expect(inventory.map((i) => i.listingID)).not.toContain(wanted.id);

    // The same completion again (a copy with a new id): nothing more changes.
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'trade.offer.completed', trade));
    const marker = await createListing(h.url, third.token, itemFields({ title: 'Markering' }));
    await waitFor(() => h.events.some((e) => e.type === 'listing.listing.created' && (e.payload as { id: string }).id === marker.id), 'later event');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(updatesOf(wanted.id)).toHaveLength(1);
    expect(updatesOf(given.id)).toHaveLength(1);
    expect(counts(receiver.id)).toEqual([1, 2, 1]);
  });

  // Probe finding 2: a trade whose listing was not among its items left that listing active.
  it('makes the listing the offer was made on inactive too, when its items left it out', async () => {
    const [sender, receiver] = await Promise.all([h.member(), h.member()]);
    const wanted = await createListing(h.url, receiver.token, itemFields({ title: 'Schemerlamp' }));
    const given = await createListing(h.url, sender.token, itemFields({ title: 'Kinderfiets' }));
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'trade.offer.completed', offer({ senderId: sender.id, receiverId: receiver.id, listingId: wanted.id, listingIds: [given.id] })));
    await waitFor(async () => (await active(receiver, wanted.id)) === false && (await active(sender, given.id)) === false, 'both traded listings inactive');
  });
});

describe('trade.offer.created', () => {
  it('counts as interest in the listing the offer was made on (trending)', async () => {
    const corner = { city: 'Sneek', latitude: 53.0326, longitude: 5.6589 };
    const [viewer, owner, bidder] = await Promise.all([h.member({ ...corner }), h.member({ ...corner }), h.member({ ...corner })]);
    const place = (days: number) => placeListing(h, owner.id, { title: 'Kast', description: 'Een stevige kast.', placeholder: '', latitude: corner.latitude, longitude: corner.longitude }, days * 24);
    const old = await place(30);
    const newer = await place(1);
    const recommend = async () => {
      const res = await call(h.url, `/api/listing/recommendations?userId=${viewer.id}&radiusKm=5`, { token: viewer.token });
      return z.array(ListingCardSchema).parse(await body(res)).map((c) => c.id);
    };
    await waitFor(async () => (await recommend()).length === 2, 'both listed');
    expect(await recommend()).toEqual([newer._id, old._id]);
    const made = offer({ senderId: bidder.id, receiverId: owner.id, listingId: old._id, listingIds: [old._id], status: 'Pending', senderConfirmed: false, receiverConfirmed: false, version: 1 });
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'trade.offer.created', made));
    await waitFor(async () => (await recommend())[0] === old._id, 'the offered listing ranks first');
  });
});
