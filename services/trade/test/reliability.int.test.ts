// The reliability facts (issue 24) on real stores: what each offer's events say about its parties,
// kept per offer in the member's party document and announced with their totals
// (`trade.member.counted`), on a known history with the service's clock moved: answers in and
// after 48 hours, a withdrawal before and after them, one left open, completions with the same
// member within 30 days, and an accepted offer the member cancelled by blocking the other.
import { reliabilityOf, type OfferEvent, type ReliabilityFacts } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartyDoc } from '../src/offers/party-model.ts';
import { recordOfferFacts } from '../src/reliability/facts.ts';
import { confirm, makeOffer, publish, respond, startTrade, waitFor, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

const HOUR = 3600_000;
const T0 = Date.parse('2026-03-02T09:00:00Z');
const at = (hours: number) => (h.now = new Date(T0 + hours * HOUR));
const facts = async (id: string) => (await h.db.collection<{ _id: string; reliability?: ReliabilityFacts }>('trade_parties').findOne({ _id: id }))?.reliability;
const announced = (id: string) =>
  h.events
    .filter((e) => e.type === 'trade.member.counted' && (e.payload as { userId: string }).userId === id)
    .map((e) => e.payload as { version: number; reliability?: ReliabilityFacts })
    .sort((a, b) => b.version - a.version)[0]?.reliability;

async function completed(sender: TestMember, receiver: TestMember, offerId: number) {
  expect((await confirm(h, sender, offerId)).status).toBe(200);
  expect((await confirm(h, receiver, offerId)).body.status).toBe('Completed');
}

describe('reliability facts', () => {
  it('follows a known history and announces it with the totals', async () => {
    const r = await h.member({ roles: ['Premium'] });
    const [s1, s2, s3, s4] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] })];
    at(0);
    const o1 = await makeOffer(h, s1, r);
    const o2 = await makeOffer(h, s2, r);
    const o3 = await makeOffer(h, s3, r);
    await makeOffer(h, s4, r); // o4: left open
    const o5 = await makeOffer(h, s2, r);
    // Answered in 2 hours, and completed.
    at(2);
    expect((await respond(h, r, o1.id, 'Accepted')).status).toBe(200);
    await completed(s1, r, o1.id);
    // Withdrawn after an hour: the receiver had no fair chance, left out.
    at(1);
    expect((await respond(h, s3, o3.id, 'Cancelled')).status).toBe(200);
    // Rejected after 50 hours: late. Withdrawn after 49 hours unanswered: counts as not answered.
    at(50);
    expect((await respond(h, r, o2.id, 'Rejected')).status).toBe(200);
    at(49);
    expect((await respond(h, s2, o5.id, 'Cancelled')).status).toBe(200);
    // A second completed trade with s1 three days later (answered in 30 minutes): the same member within 30 days counts once.
    at(72);
    const o6 = await makeOffer(h, s1, r);
    at(72.5);
    expect((await respond(h, r, o6.id, 'Accepted')).status).toBe(200);
    await completed(s1, r, o6.id);
    // Accepted, then r blocks s3: cancelled by r.
    at(80);
    const o7 = await makeOffer(h, s3, r);
    at(81);
    expect((await respond(h, r, o7.id, 'Accepted')).status).toBe(200);
    await publish(h, 'auth.block.added', { blockerId: r.id, blockedId: s3.id, version: 1, at: new Date(T0 + 82 * HOUR).toISOString() });

    const expected: ReliabilityFacts = {
      answeredInTime: 3,
      answeredLate: 1,
      endedUnanswered: 1,
      openSince: [new Date(T0).toISOString()],
      // By when they were given: o1 after 2 hours, o2 after 50, o6 after 30 minutes, o7 after one hour.
      responseMinutes: [120, 3000, 30, 60],
      completed: 2,
      cancelledBySelf: 1,
      trades: 1,
      sample: 5,
    };
    await waitFor(async () => (await facts(r.id))?.cancelledBySelf === 1 && (await facts(r.id))?.answeredLate === 1 && (await facts(r.id))?.completed === 2, 'facts recorded');
    const got = (await facts(r.id))!;
    expect(got).toEqual(expected);
    await waitFor(() => JSON.stringify(announced(r.id)) === JSON.stringify(expected), 'announced with the totals');

    // o4 is still open: 48 hours after it came it counts as not answered in time.
    expect(reliabilityOf(got, T0 + 47 * HOUR)).toEqual({ responseRate: 0.6, medianResponseMinutes: 90, completionRate: 0.67, completedTrades: 1, sample: 5 });
    expect(reliabilityOf(got, T0 + 48 * HOUR)).toMatchObject({ responseRate: 0.5, sample: 6 });

    // The senders: s1 completed both; s3's accepted offer was cancelled by r's block, not by s3.
    await waitFor(async () => (await facts(s1.id))?.completed === 2 && (await facts(s3.id)) !== undefined, 'senders recorded');
    expect(await facts(s1.id)).toMatchObject({ completed: 2, trades: 1, cancelledBySelf: 0, answeredInTime: 0, openSince: [], sample: 2 });
    expect(await facts(s3.id)).toMatchObject({ cancelledBySelf: 0, completed: 0, sample: 0 });
  });

  it('changes nothing when an offer event comes again, or a later copy of it', async () => {
    const r = await h.member({ roles: ['Premium'] });
    const s = await h.member({ roles: ['Premium'] });
    at(200);
    const o = await makeOffer(h, s, r);
    at(201);
    expect((await respond(h, r, o.id, 'Accepted')).status).toBe(200);
    await waitFor(async () => (await facts(r.id))?.answeredInTime === 1, 'answer recorded');
    const parties = h.db.collection<PartyDoc>('trade_parties');
    const before = await parties.findOne({ _id: r.id });
    const accepted = h.events.find((e) => e.type === 'trade.offer.accepted' && (e.payload as OfferEvent).id === o.id)!.payload as OfferEvent;
    const ctx = { parties, relay: { kick: () => undefined } };
    await recordOfferFacts(ctx, accepted);
    await recordOfferFacts(ctx, { ...accepted, at: new Date(T0 + 260 * HOUR).toISOString() });
    const after = await parties.findOne({ _id: r.id });
    expect(after?.version).toBe(before?.version);
    expect(after?.offers).toEqual(before?.offers);
    expect(after?.reliability?.responseMinutes).toEqual([60]);
  });
});
