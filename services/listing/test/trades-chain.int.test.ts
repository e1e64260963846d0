// listing's consumer of trade.offer.completed (services/listing/src/trades) reading both versions of
// the offer events side by side (issue 24): a version 1 event of a two-party trade (members from its
// sender and receiver) and a version 2 event of a three-party chain (members from its participants).
import { eventRegistry, type OfferEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { body, offerEvent } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createListing, itemFields, startListing, waitFor, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
beforeAll(async () => {
  h = await startListing();
  await waitFor(async () => (await fetch(`${h.url}/readyz`)).status === 200, 'search ready');
});
afterAll(async () => {
  await h?.close();
});

const completed = (over: Partial<OfferEvent> & Pick<OfferEvent, 'senderId' | 'receiverId' | 'listingId'>): OfferEvent =>
  offerEvent({ version: 6, status: 'Completed', senderConfirmed: true, receiverConfirmed: true, ...over });
const active = async (member: TestMember, id: string) => ((await body(await call(h.url, '/api/listing/my', { token: member.token }))) as { id: string; isActive: boolean }[]).find((l) => l.id === id)?.isActive;

describe('trade.offer.completed of both versions', () => {
  it('deactivates a version 1 two-party trade’s listings and every listing of a version 2 chain', async () => {
    const [s, r, a, b, c, outsider] = await Promise.all([h.member(), h.member(), h.member(), h.member(), h.member(), h.member()]);
    const [sGives, rGives] = [await createListing(h.url, s.token, itemFields({ title: 'Stadsfiets' })), await createListing(h.url, r.token, itemFields({ title: 'Boormachine' }))];
    const [aGives, bGives, cGives] = [
      await createListing(h.url, a.token, itemFields({ title: 'Racefiets' })),
      await createListing(h.url, b.token, itemFields({ title: 'Naaimachine' })),
      await createListing(h.url, c.token, itemFields({ title: 'Tent' })),
    ];
    const foreign = await createListing(h.url, outsider.token, itemFields({ title: 'Gitaar' }));

    // Version 1: no participants, the envelope says schema version 1.
    const old = createEvent(eventRegistry, 'trade.offer.completed', completed({ senderId: s.id, receiverId: r.id, listingId: rGives.id, listingIds: [rGives.id, sGives.id] }));
    await publishEvent(h.adminBus, { ...old, schemaVersion: 1 });
    // Version 2: a chain a -> receives b's, b -> c's, c -> a's; sender/receiver name only two of them,
    // listingIds would be enough, the participants say whose each is (the outsider's listing is no member's).
    const chain = createEvent(
      eventRegistry,
      'trade.offer.completed',
      completed({
        senderId: a.id,
        receiverId: b.id,
        listingId: bGives.id,
        listingIds: [bGives.id, cGives.id, aGives.id, foreign.id],
        chainId: 'chain-1',
        participants: [
          { userId: a.id, gives: [aGives.id], receives: [bGives.id], accepted: true, confirmed: true },
          { userId: b.id, gives: [bGives.id], receives: [cGives.id], accepted: true, confirmed: true },
          { userId: c.id, gives: [cGives.id], receives: [aGives.id], accepted: true, confirmed: true },
        ],
      }),
    );
    expect(chain.schemaVersion).toBe(2);
    await publishEvent(h.adminBus, chain);

    await waitFor(async () => (await active(s, sGives.id)) === false && (await active(r, rGives.id)) === false, 'version 1 trade deactivated');
    await waitFor(
      async () => (await active(a, aGives.id)) === false && (await active(b, bGives.id)) === false && (await active(c, cGives.id)) === false,
      'every listing of the chain deactivated, the third member’s too',
    );
    expect(await active(outsider, foreign.id)).toBe(true);
  });
});
