// Counter-offers (issue 24) over HTTP on real stores: the receiver of a Pending offer answers with
// other items from both sides; the counter is a new Pending offer the other way, linked both ways,
// and the original ends as Rejected (what a seed client understands) pointing at it. Only the
// receiver, only while Pending, something of the other's asked for, at most ten rounds; a counter
// counts for no day.
import { COUNTER_ROUNDS_MAX, OFFER_DAILY_LIMIT, OFFER_MESSAGES } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, makeOffer, respond, send, startTrade, waitFor, type Json, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

const counter = (who: TestMember, id: number, json: unknown) => send(h.url, `/api/tradeoffer/${id}/counter`, { method: 'POST', token: who.token, json });
const read = async (who: TestMember, id: number) => (await send(h.url, `/api/tradeoffer/${id}`, { token: who.token })).body as Json;

describe('POST /api/tradeoffer/{id}/counter', () => {
  it('makes a new offer the other way, linked both ways, and ends the original as Rejected', async () => {
    const [s, r] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] })];
    const bike = r.listing('Fiets');
    const book = r.listing('Boek');
    const lamp = s.listing('Lamp');
    const original = await makeOffer(h, s, r, bike);
    const res = await counter(r, original.id, { items: [{ listingID: lamp, userID: s.id }, { listingID: book, userID: r.id }], message: 'Liever het boek tegen je lamp?' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      senderID: r.id,
      receiverID: s.id,
      status: 'Pending',
      listingOfferedOnID: lamp,
      message: 'Liever het boek tegen je lamp?',
      counterOf: original.id,
      counteredBy: null,
    });
    expect(res.body.requestedListings.map((i: { listingID: string }) => i.listingID)).toEqual([lamp]);
    expect(res.body.offeredListings.map((i: { listingID: string }) => i.listingID)).toEqual([book]);
    expect(await read(s, original.id)).toMatchObject({ status: 'Rejected', counteredBy: res.body.id, counterOf: null });
    // Announced: the original rejected by r, the counter made by r.
    await waitFor(() => eventsOf(h, original.id).some((e) => e.type === 'trade.offer.rejected') && eventsOf(h, res.body.id).some((e) => e.type === 'trade.offer.created'), 'announced');
    expect(eventsOf(h, original.id).find((e) => e.type === 'trade.offer.rejected')!.payload).toMatchObject({ actorId: r.id });
    // The sender may accept the counter like any offer.
    expect((await respond(h, s, res.body.id, 'Accepted')).body.status).toBe('Accepted');
  });

  it('refuses the sender, a third member, a closed offer, a counter asking nothing of the other, and items of no party', async () => {
    const [s, r, x] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] })];
    const lamp = s.listing('Lamp');
    const xs = x.listing('Vaas');
    const original = await makeOffer(h, s, r);
    const bySender = await counter(s, original.id, { items: [{ listingID: lamp, userID: s.id }] });
    expect(bySender.status).toBe(409);
    expect(bySender.body.message).toBe(OFFER_MESSAGES.onlyReceiverCounters);
    expect((await counter(x, original.id, { items: [{ listingID: lamp, userID: s.id }] })).status).toBe(403);
    const nothing = await counter(r, original.id, { items: [{ listingID: 'krat-bier', userID: s.id }] });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe(OFFER_MESSAGES.counterNeedsTheirItem);
    const foreign = await counter(r, original.id, { items: [{ listingID: lamp, userID: s.id }, { listingID: xs, userID: x.id }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(OFFER_MESSAGES.itemNotOfParty);
    expect((await counter(r, 999_999, { items: [{ listingID: lamp, userID: s.id }] })).status).toBe(404);
    // Nothing changed by the refusals; once withdrawn, no counter.
    expect((await read(s, original.id)).status).toBe('Pending');
    expect((await respond(h, s, original.id, 'Cancelled')).status).toBe(200);
    const closed = await counter(r, original.id, { items: [{ listingID: lamp, userID: s.id }] });
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe(OFFER_MESSAGES.notPending);
  });

  it('counts for no day, and ends after ten rounds', async () => {
    const [s, r] = [await h.member(), await h.member()];
    const sItem = s.listing('Lamp');
    const rItem = r.listing('Fiets');
    // r has used the day's offers on someone else; countering is still possible.
    const other = await h.member();
    for (let i = 0; i < OFFER_DAILY_LIMIT; i++) await makeOffer(h, r, other);
    let offer = await makeOffer(h, s, r, rItem);
    const ask = (who: TestMember) => (who === r ? [{ listingID: sItem, userID: s.id }] : [{ listingID: rItem, userID: r.id }]);
    for (let round = 2; round <= COUNTER_ROUNDS_MAX; round++) {
      const who = round % 2 === 0 ? r : s;
      const res = await counter(who, offer.id, { items: ask(who) });
      expect(res.status, `round ${round}: ${JSON.stringify(res.body)}`).toBe(201);
      offer = res.body;
    }
    const count = await send(h.url, '/api/tradeoffer/count', { token: r.token });
    expect(count.body.count).toBe(OFFER_DAILY_LIMIT);
    const who = (COUNTER_ROUNDS_MAX + 1) % 2 === 0 ? r : s;
    const over = await counter(who, offer.id, { items: ask(who) });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe(OFFER_MESSAGES.counterRoundsOver);
    expect((await read(s, offer.id)).status).toBe('Pending');
  });
});
