// The offer's state machine (spec 2 §4) over HTTP on real stores: every transition allowed and
// refused, confirmations, the races (two confirmations at once, accept against withdraw), what a
// completion changes (the parties' totals, the other pending offers on its listings), and the
// events the service consumes (a deleted listing, a deleted member), each handled once.
import { OFFER_MESSAGES, type OfferStatus } from '@ruilplein/contracts';
import { offerEvent } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedOffer, confirm, eventsOf, makeOffer, publish, respond, send, startTrade, waitFor, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

const read = async (who: TestMember, id: number) => (await send(h.url, `/api/tradeoffer/${id}`, { token: who.token })).body;
const offerDoc = (id: number) => h.db.collection<{ _id: number; version: number; status: OfferStatus }>('offers').findOne({ _id: id });
const party = (id: string) => h.db.collection<{ _id: string; totalTrades?: number; ratingSum?: number; totalReviewers?: number }>('trade_parties').findOne({ _id: id });
/** Waits until every event of the offer up to `version` is published, and answers their types. */
const typesOf = async (id: number, version: number) => {
  await waitFor(() => eventsOf(h, id).length >= version, `events of offer ${id} up to version ${version}`);
  return eventsOf(h, id).map((e) => e.type);
};

describe('respond: accept, reject, withdraw', () => {
  it('lets the receiver accept a pending offer, announced', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const offer = await makeOffer(h, s, r);
    const res = await respond(h, r, offer.id, 'Accepted');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: offer.id, status: 'Accepted', senderConfirmed: false, receiverConfirmed: false });
    expect(await typesOf(offer.id, 2)).toEqual(['trade.offer.created', 'trade.offer.accepted']);
    expect(eventsOf(h, offer.id)[1]!.payload).toMatchObject({ version: 2, status: 'Accepted' });
  });

  it('lets the receiver reject, and the sender withdraw (Cancelled); status in any case', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const rejected = await makeOffer(h, s, r);
    expect((await respond(h, r, rejected.id, 'rejected')).body.status).toBe('Rejected');
    const withdrawn = await makeOffer(h, s, r);
    expect((await respond(h, s, withdrawn.id, 'Cancelled')).body.status).toBe('Cancelled');
    expect(await typesOf(rejected.id, 2)).toEqual(['trade.offer.created', 'trade.offer.rejected']);
    expect(await typesOf(withdrawn.id, 2)).toEqual(['trade.offer.created', 'trade.offer.cancelled']);
    // A withdrawn offer was still made that day: it counts.
    expect((await send(h.url, '/api/tradeoffer/count', { token: s.token })).body.count).toBe(2);
  });

  it('refuses the wrong party (409), a third member (403), a finished offer (409), an unknown one (404)', async () => {
    const [s, r, x] = [await h.member({ roles: ['Premium'] }), await h.member(), await h.member()];
    const offer = await makeOffer(h, s, r);
    const refused: Array<[TestMember, string, number, string]> = [
      [s, 'Accepted', 409, OFFER_MESSAGES.onlyReceiverResponds],
      [s, 'Rejected', 409, OFFER_MESSAGES.onlyReceiverResponds],
      [r, 'Cancelled', 409, OFFER_MESSAGES.onlySenderWithdraws],
      [x, 'Accepted', 403, OFFER_MESSAGES.notParty],
      [x, 'Cancelled', 403, OFFER_MESSAGES.notParty],
    ];
    for (const [who, status, code, message] of refused) {
      const res = await respond(h, who, offer.id, status);
      expect(res.status, `${status} by ${who === s ? 'sender' : who === r ? 'receiver' : 'third'}`).toBe(code);
      expect(res.body.message).toBe(message);
    }
    expect((await offerDoc(offer.id))?.version).toBe(1);

    // Once answered, nothing more: from Accepted, Rejected and Cancelled every respond is a 409.
    for (const end of ['Accepted', 'Rejected', 'Cancelled'] as const) {
      const o = await makeOffer(h, s, r);
      expect((await respond(h, end === 'Cancelled' ? s : r, o.id, end)).status).toBe(200);
      for (const [who, status] of [[r, 'Accepted'], [r, 'Rejected'], [s, 'Cancelled']] as const) {
        const res = await respond(h, who, o.id, status);
        expect(res.status, `${status} after ${end}`).toBe(409);
        expect(res.body.message).toBe(OFFER_MESSAGES.notPending);
      }
    }
    expect((await respond(h, r, 999_999_998, 'Accepted')).status).toBe(404);
  });

  it('refuses a status other than Accepted, Rejected or Cancelled (400), changing nothing', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const offer = await makeOffer(h, s, r);
    for (const status of ['Pending', 'Completed', 'Geaccepteerd', '', 'Accepted%20X']) {
      const res = await respond(h, r, offer.id, status);
      expect(res.status, status).toBe(400);
      expect(res.body.message).toBe(OFFER_MESSAGES.invalidStatus);
    }
    expect((await send(h.url, `/api/tradeoffer/respond/${offer.id}`, { method: 'PUT', token: r.token })).status).toBe(400);
    expect((await respond(h, r, 0, 'Accepted')).status).toBe(400);
    expect((await send(h.url, `/api/tradeoffer/respond/${offer.id}?status=Accepted`, { method: 'PUT' })).status).toBe(401);
    expect((await read(s, offer.id)).status).toBe('Pending');
  });

  it('refuses to accept an offer one of whose listings is gone meanwhile (409), still pending', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const mine = s.listing();
    const on = r.listing();
    const offer = await makeOffer(h, s, r, on, [{ listingID: on, userID: r.id }, { listingID: mine, userID: s.id }]);
    s.unlist(mine);
    const res = await respond(h, r, offer.id, 'Accepted');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(OFFER_MESSAGES.itemsGone);
    expect((await read(r, offer.id)).status).toBe('Pending');
    // Rejecting needs no inventory.
    expect((await respond(h, r, offer.id, 'Rejected')).status).toBe(200);
  });
});

describe('confirm', () => {
  it('takes each party’s confirmation once on an accepted offer; both: Completed', async () => {
    const [s, r, x] = [await h.member(), await h.member(), await h.member()];
    const offer = await makeOffer(h, s, r);
    const pending = await confirm(h, s, offer.id);
    expect(pending.status).toBe(409);
    expect(pending.body.message).toBe(OFFER_MESSAGES.notAccepted);
    await respond(h, r, offer.id, 'Accepted');
    expect((await confirm(h, x, offer.id)).status).toBe(403);
    const first = await confirm(h, s, offer.id);
    expect(first.body).toMatchObject({ status: 'Accepted', senderConfirmed: true, receiverConfirmed: false });
    const again = await confirm(h, s, offer.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(OFFER_MESSAGES.alreadyConfirmed);
    const second = await confirm(h, r, offer.id);
    expect(second.body).toMatchObject({ status: 'Completed', senderConfirmed: true, receiverConfirmed: true });
    for (const who of [s, r]) expect((await confirm(h, who, offer.id)).body.message).toBe(OFFER_MESSAGES.alreadyConfirmed);
    for (const [who, status] of [[r, 'Rejected'], [s, 'Cancelled']] as const) expect((await respond(h, who, offer.id, status)).status).toBe(409);
    expect(await typesOf(offer.id, 4)).toEqual(['trade.offer.created', 'trade.offer.accepted', 'trade.offer.confirmed', 'trade.offer.completed']);
    expect(eventsOf(h, offer.id)[3]!.payload).toMatchObject({ version: 4, status: 'Completed', senderConfirmed: true, receiverConfirmed: true });
    expect((await send(h.url, '/api/tradeoffer/confirm/999999997', { method: 'POST', token: s.token })).status).toBe(404);
    expect((await send(h.url, '/api/tradeoffer/confirm/abc', { method: 'POST', token: s.token })).status).toBe(400);
  });

  it('refuses a confirmation of a rejected or withdrawn offer', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const rejected = await makeOffer(h, s, r);
    await respond(h, r, rejected.id, 'Rejected');
    const withdrawn = await makeOffer(h, s, r);
    await respond(h, s, withdrawn.id, 'Cancelled');
    for (const id of [rejected.id, withdrawn.id]) for (const who of [s, r]) expect((await confirm(h, who, id)).status).toBe(409);
  });
});

describe('races', () => {
  it('two confirmations at once always complete the trade, once', async () => {
    const [s, r] = [await h.member({ roles: ['Premium'] }), await h.member()];
    for (let round = 0; round < 15; round++) {
      const offer = await makeOffer(h, s, r);
      await respond(h, r, offer.id, 'Accepted');
      const [a, b] = await Promise.all([confirm(h, s, offer.id), confirm(h, r, offer.id)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const doc = await offerDoc(offer.id);
      expect(doc).toMatchObject({ status: 'Completed', version: 4, senderConfirmed: true, receiverConfirmed: true });
      expect([a.body.status, b.body.status].filter((st) => st === 'Completed')).toHaveLength(1);
      expect(await typesOf(offer.id, 4)).toEqual(['trade.offer.created', 'trade.offer.accepted', 'trade.offer.confirmed', 'trade.offer.completed']);
    }
    // Fifteen trades, each counted once for each party.
    await waitFor(async () => (await party(s.id))?.totalTrades === 15 && (await party(r.id))?.totalTrades === 15, 'fifteen trades each');
  });

  it('one party confirming twice at once counts once', async () => {
    const [s, r] = [await h.member({ roles: ['Premium'] }), await h.member()];
    for (let round = 0; round < 10; round++) {
      const offer = await makeOffer(h, s, r);
      await respond(h, r, offer.id, 'Accepted');
      const results = await Promise.all([confirm(h, s, offer.id), confirm(h, s, offer.id), confirm(h, s, offer.id)]);
      expect(results.map((x) => x.status).sort()).toEqual([200, 409, 409]);
      expect(await offerDoc(offer.id)).toMatchObject({ status: 'Accepted', version: 3, senderConfirmed: true, receiverConfirmed: false });
    }
  });

  it('accept, reject, withdraw and confirm at once: one answer wins, never an impossible state', async () => {
    const [s, r] = [await h.member({ roles: ['Premium'] }), await h.member()];
    for (let round = 0; round < 20; round++) {
      const offer = await makeOffer(h, s, r);
      const [accept, reject, withdraw, senderConfirm, receiverConfirm] = await Promise.all([
        respond(h, r, offer.id, 'Accepted'),
        respond(h, r, offer.id, 'Rejected'),
        respond(h, s, offer.id, 'Cancelled'),
        confirm(h, s, offer.id),
        confirm(h, r, offer.id),
      ]);
      const answers = [accept, reject, withdraw];
      expect(answers.filter((x) => x.status === 200), JSON.stringify(answers.map((x) => x.body))).toHaveLength(1);
      expect(answers.filter((x) => x.status === 409)).toHaveLength(2);
      const doc = (await offerDoc(offer.id)) as unknown as { status: OfferStatus; version: number; senderConfirmed: boolean; receiverConfirmed: boolean };
      const confirmations = [senderConfirm, receiverConfirm].filter((x) => x.status === 200).length;
      if (doc.status === 'Rejected' || doc.status === 'Cancelled') {
        // A confirmation never lands on an offer that was not accepted.
        expect(confirmations).toBe(0);
        expect(doc).toMatchObject({ senderConfirmed: false, receiverConfirmed: false, version: 2 });
      } else {
        expect(accept.status).toBe(200);
        expect(doc.status).toBe(confirmations === 2 ? 'Completed' : 'Accepted');
        expect(Number(doc.senderConfirmed) + Number(doc.receiverConfirmed)).toBe(confirmations);
        expect(doc.version).toBe(2 + confirmations);
      }
      // The events tell the same story, one per version.
      const types = await typesOf(offer.id, doc.version);
      expect(types).toHaveLength(doc.version);
      expect(eventsOf(h, offer.id).map((e) => (e.payload as { version: number }).version)).toEqual(Array.from({ length: doc.version }, (_, i) => i + 1));
    }
  });

  it('a withdrawal racing the acceptance and a confirmation: Cancelled has no confirmation', async () => {
    const [s, r] = [await h.member({ roles: ['Premium'] }), await h.member()];
    for (let round = 0; round < 20; round++) {
      const offer = await makeOffer(h, s, r);
      const [withdraw] = await Promise.all([respond(h, s, offer.id, 'Cancelled'), respond(h, r, offer.id, 'Accepted').then(() => confirm(h, r, offer.id))]);
      const doc = await offerDoc(offer.id);
      if (withdraw.status === 200) {
        expect(doc).toMatchObject({ status: 'Cancelled', version: 2, senderConfirmed: false, receiverConfirmed: false });
      } else {
        expect(doc).toMatchObject({ status: 'Accepted', version: 3, receiverConfirmed: true });
      }
    }
  });
});

describe('what a completed trade changes', () => {
  it('counts a trade for each party (announced), and cancels the other pending offers holding its listings', async () => {
    const [s, r, x] = [await h.member(), await h.member(), await h.member({ roles: ['Premium'] })];
    const bike = s.listing('Fiets');
    const drill = r.listing('Boor');
    const lamp = r.listing('Lamp');
    // Other offers: on the traded drill (by x), offering the traded bike (s to x), on the lamp only, and one accepted on the drill.
    const onDrill = await makeOffer(h, x, r, drill);
    const offersBike = await makeOffer(h, x, s, bike, [{ listingID: bike, userID: s.id }]);
    const onLamp = await makeOffer(h, x, r, lamp, [{ listingID: lamp, userID: r.id }, { listingID: 'krat-bier', userID: x.id }]);
    const acceptedOnDrill = await makeOffer(h, x, r, drill);
    await respond(h, r, acceptedOnDrill.id, 'Accepted');

    const trade = await completedOffer(h, s, r, drill, [{ listingID: drill, userID: r.id }, { listingID: bike, userID: s.id }, { listingID: 'krat-bier', userID: s.id }]);
    await waitFor(async () => (await read(x, onDrill.id)).status === 'Cancelled' && (await read(x, offersBike.id)).status === 'Cancelled', 'pending offers on traded listings cancelled');
    expect((await read(x, onLamp.id)).status).toBe('Pending');
    // An accepted offer stays for its parties to settle.
    expect((await read(x, acceptedOnDrill.id)).status).toBe('Accepted');
    expect(await typesOf(onDrill.id, 2)).toEqual(['trade.offer.created', 'trade.offer.cancelled']);

    await waitFor(async () => (await party(s.id))?.totalTrades === 1 && (await party(r.id))?.totalTrades === 1, 'one trade each');
    const counted = () => h.events.filter((e) => e.type === 'trade.member.counted' && [s.id, r.id].includes((e.payload as { userId: string }).userId));
    // Their reliability facts are announced the same way: wait for the counts of the trade.
    await waitFor(() => [s.id, r.id].every((id) => counted().some((e) => (e.payload as { userId: string; totalTrades: number }).userId === id && (e.payload as { totalTrades: number }).totalTrades === 1)), 'counted events of both');
    expect(counted().map((e) => e.payload)).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: s.id, totalTrades: 1, ratingSum: 0, totalReviewers: 0 }), expect.objectContaining({ userId: r.id, totalTrades: 1 })]),
    );
    expect(eventsOf(h, trade.id).at(-1)!.payload).toMatchObject({ status: 'Completed', listingIds: [drill, bike] });
  });

  it('counts a completion once however often its event comes', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const trade = await completedOffer(h, s, r);
    await waitFor(async () => (await party(s.id))?.totalTrades === 1, 'counted');
    await typesOf(trade.id, 4);
    const completed = eventsOf(h, trade.id).find((e) => e.type === 'trade.offer.completed')!;
    // The same event again (a redelivery), and a copy with a new id (a second publish).
    await h.adminBus.js.publish('trade.offer.completed', JSON.stringify(completed), { msgID: `again-${completed.id}` });
    const copy = await publish(h, 'trade.offer.completed', completed.payload as never);
    const consumed = h.db.collection<{ _id: string; state: string }>('consumed_events');
    await waitFor(async () => (await consumed.findOne({ _id: `trade-outcomes:${copy.id}` }))?.state === 'done', 'the copy handled');
    expect((await party(s.id))?.totalTrades).toBe(1);
    expect((await party(r.id))?.totalTrades).toBe(1);
  });

  it('counts a completion the request could not settle, from its event', async () => {
    const [s, r] = [await h.member(), await h.member()];
    // Both have a party document (an offer between them), as every completed trade's parties do.
    await makeOffer(h, s, r);
    await publish(h, 'trade.offer.completed', offerEvent({ id: 987_654, version: 4, senderId: s.id, receiverId: r.id, listingId: 'c'.repeat(24), status: 'Completed', senderConfirmed: true, receiverConfirmed: true }));
    await waitFor(async () => (await party(s.id))?.totalTrades === 1 && (await party(r.id))?.totalTrades === 1, 'counted from the event');
  });
});

describe('events the service consumes', () => {
  it('cancels the pending offers holding a deleted listing (announced), once; accepted ones stay', async () => {
    const [s, r, x] = [await h.member({ roles: ['Premium'] }), await h.member(), await h.member()];
    const drill = r.listing();
    const mine = s.listing();
    const onDrill = await makeOffer(h, s, r, drill);
    const offeringDrill = await makeOffer(h, r, x, x.listing(), [{ listingID: drill, userID: r.id }]);
    const accepted = await makeOffer(h, s, r, drill);
    await respond(h, r, accepted.id, 'Accepted');
    const other = await makeOffer(h, s, r, r.listing(), [{ listingID: mine, userID: s.id }]);
    const deleted = { id: drill, version: 3, ownerId: r.id };
    await publish(h, 'listing.listing.deleted', deleted);
    await publish(h, 'listing.listing.deleted', deleted);
    await waitFor(async () => (await read(s, onDrill.id)).status === 'Cancelled' && (await read(x, offeringDrill.id)).status === 'Cancelled', 'cancelled');
    expect((await read(s, accepted.id)).status).toBe('Accepted');
    expect((await read(s, other.id)).status).toBe('Pending');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await typesOf(onDrill.id, 2)).toEqual(['trade.offer.created', 'trade.offer.cancelled']);
    expect((await offerDoc(onDrill.id))?.version).toBe(2);
    // A listing of someone not party to any offer: nothing happens.
    await publish(h, 'listing.listing.deleted', { id: 'd'.repeat(24), version: 2, ownerId: x.id });
  });

  it('cancels the open offers of a deleted member, keeps completed trades, refuses the member’s token', async () => {
    const [s, r, x] = [await h.member({ roles: ['Premium'] }), await h.member(), await h.member()];
    const pending = await makeOffer(h, s, r);
    const accepted = await makeOffer(h, r, s);
    await respond(h, s, accepted.id, 'Accepted');
    const done = await completedOffer(h, s, r);
    const unrelated = await makeOffer(h, x, s);
    await r.remove();
    await waitFor(async () => (await read(s, pending.id)).status === 'Cancelled' && (await read(s, accepted.id)).status === 'Cancelled', 'open offers cancelled');
    expect((await read(s, done.id)).status).toBe('Completed');
    expect((await read(s, unrelated.id)).status).toBe('Pending');
    expect((await party(r.id)) ?? undefined).toBeUndefined();
    expect((await send(h.url, '/api/tradeoffer/create', { method: 'POST', token: r.token, json: { receiverID: s.id, listingOfferedOnID: s.listing() } })).status).toBe(401);
  });

  it('applies a member’s newer state only (names, Premium)', async () => {
    const [s, r] = [await h.member({ firstName: 'Oud' }), await h.member()];
    const offer = await makeOffer(h, s, r);
    await s.update({ firstName: 'Nieuw' });
    expect((await read(r, offer.id)).sender.firstName).toBe('Nieuw');
    // An older state arriving late changes nothing.
    await publish(h, 'auth.user.updated', { id: s.id, version: 1, firstName: 'Oud', lastName: s.lastName, profilePicture: '', roles: ['Premium'], activated: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await read(r, offer.id)).sender.firstName).toBe('Nieuw');
    expect((await send(h.url, '/api/tradeoffer/count', { token: s.token })).body.limit).toBe(2);
  });
});

// Probe finding 2: an offer whose listing was not among its items completed while that listing
// stayed active; it was traded again, and each extra trade unlocked another review.
describe('the listing an offer is made on is always traded', () => {
  it('adds it to the requested items when the payload leaves it out; its completion announces it traded', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const lamp = r.listing('Lamp');
    const bike = s.listing('Fiets');
    const offer = await makeOffer(h, s, r, lamp, [{ listingID: bike, userID: s.id }]);
    expect(offer.requestedListings.map((i: { listingID: string }) => i.listingID)).toEqual([lamp]);
    expect(offer.offeredListings.map((i: { listingID: string }) => i.listingID)).toEqual([bike]);
    expect((await respond(h, r, offer.id, 'Accepted')).status).toBe(200);
    expect((await confirm(h, s, offer.id)).status).toBe(200);
    expect((await confirm(h, r, offer.id)).body.status).toBe('Completed');
    await typesOf(offer.id, 4);
    expect(eventsOf(h, offer.id).at(-1)!.payload).toMatchObject({ status: 'Completed', listingIds: expect.arrayContaining([lamp, bike]) });
  });

  it('refuses a new offer on or with a traded listing, and to accept or complete another offer holding it; one review each', async () => {
    const [s, r, x] = [await h.member(), await h.member(), await h.member({ roles: ['Premium'] })];
    const lamp = r.listing('Lamp');
    const chair = r.listing('Stoel');
    const pending = await makeOffer(h, x, r, chair, [{ listingID: chair, userID: r.id }, { listingID: lamp, userID: r.id }]);
    const accepted = await makeOffer(h, x, r, lamp, [{ listingID: 'krat-bier', userID: x.id }]);
    expect((await respond(h, r, accepted.id, 'Accepted')).status).toBe(200);
    const trade = await completedOffer(h, s, r, lamp, [{ listingID: s.listing('Fiets'), userID: s.id }]);

    // The listing service has not caught up yet: its inventory still holds the lamp.
    const on = await send(h.url, '/api/tradeoffer/create', { method: 'POST', token: x.token, json: { receiverID: r.id, listingOfferedOnID: lamp, items: [] } });
    expect(on.status).toBe(400);
    expect(on.body.message).toBe(OFFER_MESSAGES.receiverNotOwner);
    const withIt = await send(h.url, '/api/tradeoffer/create', { method: 'POST', token: x.token, json: { receiverID: r.id, listingOfferedOnID: chair, items: [{ listingID: lamp, userID: r.id }] } });
    expect(withIt.status).toBe(400);
    expect(withIt.body.message).toBe(OFFER_MESSAGES.itemUnavailable);

    // The other offers holding the lamp: the pending one cannot be accepted, the accepted one cannot complete.
    const accept = await respond(h, r, pending.id, 'Accepted');
    expect(accept.status).toBe(409);
    expect((await confirm(h, x, accepted.id)).status).toBe(200);
    const second = await confirm(h, r, accepted.id);
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(OFFER_MESSAGES.itemsGone);
    expect((await read(r, accepted.id)).status).toBe('Accepted');

    // One completed trade: one review each way, and none between x and r.
    const review = (who: TestMember, of: TestMember) => send(h.url, '/api/review/add', { method: 'POST', token: who.token, json: { revieweeID: of.id, rating: 4 } });
    expect((await review(s, r)).body.tradeOfferId).toBe(trade.id);
    expect((await review(s, r)).status).toBe(409);
    expect((await review(x, r)).status).toBe(403);
  });

  it('completes only one of two accepted offers on one listing confirmed at once', async () => {
    const [a, b, r] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] }), await h.member()];
    const lamp = r.listing('Lamp');
    const offers = [await makeOffer(h, a, r, lamp), await makeOffer(h, b, r, lamp)];
    for (const o of offers) expect((await respond(h, r, o.id, 'Accepted')).status).toBe(200);
    expect((await confirm(h, a, offers[0].id)).status).toBe(200);
    expect((await confirm(h, b, offers[1].id)).status).toBe(200);
    const answers = await Promise.all(offers.map((o) => confirm(h, r, o.id)));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const states = await Promise.all(offers.map(async (o) => (await offerDoc(o.id))?.status));
    expect(states.sort()).toEqual(['Accepted', 'Completed']);
  });
});
