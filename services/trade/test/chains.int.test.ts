// Three-party offers (swap chains, issue 24) on real stores: proposed through the chain service's
// query `rpc.trade.chain.propose`, answered and confirmed by each member through the seed's routes,
// one rejection ending it for all, a listing traded elsewhere cancelling it, two proposals racing
// for one listing, the query's refusals, and trade's own consumer reading both event versions.
import { BLOCK_MESSAGES, eventRegistry, OFFER_MESSAGES, REVIEW_MESSAGES, tradeQueries, type ChainLink, type OfferEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent, requestQuery } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartyDoc } from '../src/offers/party-model.ts';
import { completedOffer, confirm, eventsOf, makeOffer, publish, respond, send, startTrade, waitFor, type Json, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

interface Ring {
  members: [TestMember, TestMember, TestMember];
  listings: [string, string, string];
  links: ChainLink[];
}

/** Three members whose wishes form a ring: each gives their listing to the previous one (a receives b's, b receives c's, c receives a's). */
async function ring(roles: 'Premium' | 'none' = 'Premium'): Promise<Ring> {
  const fields = roles === 'Premium' ? { roles: ['Premium' as const] } : {};
  const members = [await h.member(fields), await h.member(fields), await h.member(fields)] as Ring['members'];
  const listings = members.map((m, i) => m.listing(['Racefiets', 'Naaimachine', 'Tent'][i])) as Ring['listings'];
  const links = members.map((m, i) => ({ userId: m.id, gives: listings[i]!, receives: listings[(i + 1) % 3]! }));
  return { members, listings, links };
}

const propose = (r: Pick<Ring, 'links'>, proposer: TestMember, chainId = `chain-${Math.random().toString(36).slice(2)}`) =>
  requestQuery(h.adminBus, tradeQueries.proposeChain, { chainId, proposerId: proposer.id, links: r.links });

async function proposed(r: Ring, proposer = r.members[0]): Promise<number> {
  const answer = await propose(r, proposer);
  expect(answer).toMatchObject({ ok: true });
  return (answer as { offerId: number }).offerId;
}

const get = (who: TestMember, id: number) => send(h.url, `/api/tradeoffer/${id}`, { token: who.token });
const status = async (who: TestMember, id: number) => (await get(who, id)).body.status;
const review = (who: TestMember, revieweeID: string, tradeOfferId: number) =>
  send(h.url, '/api/review/add', { method: 'POST', token: who.token, json: { revieweeID, tradeOfferId, rating: 5, comment: 'Prima geruild.' } });

describe('rpc.trade.chain.propose and the three-party offer', () => {
  it('goes from Pending through each acceptance and confirmation to Completed, announced with its participants', async () => {
    const r = await ring();
    const [a, b, c] = r.members;
    const id = await proposed(r);

    const read = await get(b, id);
    expect(read.status).toBe(200);
    const offer = read.body as Json;
    expect(offer).toMatchObject({ status: 'Pending', senderID: a.id, receiverID: b.id, listingOfferedOnID: r.listings[1] });
    expect(offer.participants.map((p: Json) => [p.id, p.gives[0].listingID, p.receives[0].listingID, p.givesTo, p.receivesFrom, p.accepted, p.confirmed])).toEqual([
      [a.id, r.listings[0], r.listings[1], c.id, b.id, true, false],
      [b.id, r.listings[1], r.listings[2], a.id, c.id, false, false],
      [c.id, r.listings[2], r.listings[0], b.id, a.id, false, false],
    ]);
    expect(offer.participants[1].firstName).toBe(b.firstName);
    // Listed for each member (their offers), and readable by each; not by anyone else.
    for (const m of r.members) expect(((await send(h.url, '/api/tradeoffer/my', { token: m.token })).body as Json[]).map((o) => o.id)).toContain(id);
    const stranger = await h.member();
    expect((await get(stranger, id)).status).toBe(403);

    // The proposer counts as accepted; no counter-offer on a chain.
    expect((await respond(h, a, id, 'Accepted')).body.message).toBe(OFFER_MESSAGES.onlyReceiverResponds);
    const counter = await send(h.url, `/api/tradeoffer/${id}/counter`, { method: 'POST', token: b.token, json: { items: [{ listingID: r.listings[0], userID: a.id }] } });
    expect([counter.status, counter.body.message]).toEqual([409, OFFER_MESSAGES.chainNoCounter]);
    // Confirming before everyone accepted is refused.
    expect((await confirm(h, a, id)).body.message).toBe(OFFER_MESSAGES.notAccepted);

    const first = await respond(h, b, id, 'Accepted');
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('Pending');
    expect((await respond(h, b, id, 'Accepted')).body.message).toBe(OFFER_MESSAGES.alreadyAccepted);
    expect((await respond(h, c, id, 'Accepted')).body.status).toBe('Accepted');

    expect((await confirm(h, a, id)).body.status).toBe('Accepted');
    expect((await confirm(h, a, id)).body.message).toBe(OFFER_MESSAGES.alreadyConfirmed);
    expect((await confirm(h, c, id)).body.status).toBe('Accepted');
    const done = await confirm(h, b, id);
    expect(done.body.status).toBe('Completed');
    expect(done.body.participants.every((p: Json) => p.accepted && p.confirmed)).toBe(true);

    await waitFor(() => eventsOf(h, id).some((e) => e.type === 'trade.offer.completed'), 'completion announced');
    const events = eventsOf(h, id);
    expect(events.map((e) => e.type)).toEqual([
      'trade.offer.created',
      'trade.offer.accepted',
      'trade.offer.accepted',
      'trade.offer.confirmed',
      'trade.offer.confirmed',
      'trade.offer.completed',
    ]);
    const completed = events.at(-1)!;
    expect(completed.schemaVersion).toBe(2);
    const payload = completed.payload as OfferEvent;
    expect(payload.chainId).toMatch(/^chain-/);
    expect(new Set(payload.listingIds)).toEqual(new Set(r.listings));
    expect(payload.participants?.map((p) => [p.userId, p.gives, p.receives, p.accepted, p.confirmed])).toEqual(r.links.map((l) => [l.userId, [l.gives], [l.receives], true, true]));
    // The first acceptance is announced with the offer still Pending, by its actor.
    expect(events[1]!.payload).toMatchObject({ status: 'Pending', actorId: b.id });

    // Each member counts one trade.
    await waitFor(async () => {
      const docs = await h.db.collection<PartyDoc>('trade_parties').find({ _id: { $in: r.members.map((m) => m.id) } }).toArray();
      return docs.length === 3 && docs.every((d) => d.totalTrades === 1);
    }, 'a trade counted for each member');

    // Each receiver reviews their giver: a reviews b, b reviews c, c reviews a; nobody else.
    expect((await review(a, c.id, id)).body.message).toBe(REVIEW_MESSAGES.notTraded);
    expect((await review(a, b.id, id)).status).toBe(201);
    expect((await review(b, c.id, id)).status).toBe(201);
    expect((await review(c, a.id, id)).status).toBe(201);
    expect((await review(c, a.id, id)).status).toBe(409);
  });

  it('ends for all when one member rejects, and is withdrawn only by its proposer', async () => {
    const r = await ring();
    const [a, b, c] = r.members;
    const id = await proposed(r, b);
    expect((await respond(h, c, id, 'Accepted')).body.status).toBe('Pending');
    expect((await respond(h, c, id, 'Cancelled')).body.message).toBe(OFFER_MESSAGES.onlySenderWithdraws);
    const rejected = await respond(h, a, id, 'Rejected');
    expect(rejected.body.status).toBe('Rejected');
    for (const m of r.members) expect(await status(m, id)).toBe('Rejected');
    expect((await respond(h, c, id, 'Accepted')).body.message).toBe(OFFER_MESSAGES.notPending);
    await waitFor(() => eventsOf(h, id).some((e) => e.type === 'trade.offer.rejected' && (e.payload as OfferEvent).actorId === a.id), 'rejection announced');

    // The same listings in a new chain (the old holds ended with their offer); withdrawn by its proposer.
    const again = await proposed(r, c);
    expect((await respond(h, c, again, 'Cancelled')).body.status).toBe('Cancelled');
  });

  it('is cancelled when one of its listings is traded elsewhere meanwhile, announced without an actor', async () => {
    const r = await ring();
    const [, b] = r.members;
    const id = await proposed(r);
    // b's listing goes to someone else in a plain trade.
    const d = await h.member({ roles: ['Premium'] });
    await completedOffer(h, d, b, r.listings[1]);
    await waitFor(async () => (await status(b, id)) === 'Cancelled', 'chain cancelled');
    await waitFor(() => eventsOf(h, id).some((e) => e.type === 'trade.offer.cancelled'), 'cancellation announced');
    const cancelled = eventsOf(h, id).find((e) => e.type === 'trade.offer.cancelled')!.payload as OfferEvent;
    expect(cancelled.actorId).toBeUndefined();
    expect(cancelled.participants).toHaveLength(3);

    // An Accepted chain too: it could never complete without the listing.
    const r2 = await ring();
    const accepted = await proposed(r2);
    for (const m of r2.members.slice(1)) expect((await respond(h, m, accepted, 'Accepted')).status).toBe(200);
    expect(await status(r2.members[0], accepted)).toBe('Accepted');
    await completedOffer(h, d, r2.members[2], r2.listings[2]);
    await waitFor(async () => (await status(r2.members[0], accepted)) === 'Cancelled', 'accepted chain cancelled');
  });

  it('lets one of two proposals racing for one listing through (409 for the other)', async () => {
    const r = await ring();
    const [a, b] = r.members;
    // A second ring sharing a's listing: a, b and a fourth member.
    const e = await h.member({ roles: ['Premium'] });
    const eListing = e.listing('Gitaar');
    const bOther = b.listing('Skateboard');
    const other: ChainLink[] = [
      { userId: a.id, gives: r.listings[0], receives: bOther },
      { userId: b.id, gives: bOther, receives: eListing },
      { userId: e.id, gives: eListing, receives: r.listings[0] },
    ];
    const answers = await Promise.all([propose(r, a), propose({ links: other }, a)]);
    expect(answers.filter((x) => x.ok)).toHaveLength(1);
    expect(answers.find((x) => !x.ok)).toEqual({ ok: false, status: 409, message: OFFER_MESSAGES.chainListingTaken });
  });

  it('refuses what a normal offer refuses, answered with status and Dutch message', async () => {
    const r = await ring();
    const [a, b, c] = r.members;
    const x = await h.member({ roles: ['Premium'] });
    const refusal = async (links: ChainLink[], proposer = a) => {
      const answer = await propose({ links }, proposer);
      expect(answer.ok).toBe(false);
      return answer as { status: number; message: string };
    };
    // Not a ring, the proposer no member.
    expect(await refusal([r.links[0]!, r.links[2]!, r.links[1]!])).toEqual({ ok: false, status: 400, message: OFFER_MESSAGES.chainNotRing });
    expect(await refusal(r.links, x)).toEqual({ ok: false, status: 400, message: OFFER_MESSAGES.chainProposerNotMember });
    // A listing no longer its giver's.
    c.unlist(r.listings[2]);
    expect(await refusal(r.links)).toEqual({ ok: false, status: 400, message: OFFER_MESSAGES.itemUnavailable });
    const l2 = c.listing('Kano');
    const links = r.links.map((l, i) => (i === 2 ? { ...l, gives: l2 } : i === 1 ? { ...l, receives: l2 } : l));
    // Two of the members blocked (either way).
    await publish(h, 'auth.block.added', { blockerId: c.id, blockedId: a.id, version: 1, at: new Date().toISOString() });
    const blockOn = async (on: boolean) => (await h.db.collection<{ _id: string; in?: Record<string, { on: boolean }> }>('blocks').findOne({ _id: a.id }))?.in?.[c.id]?.on === on;
    await waitFor(() => blockOn(true), 'block projected');
    expect(await refusal(links)).toEqual({ ok: false, status: 403, message: BLOCK_MESSAGES.cannotTrade });
    await publish(h, 'auth.block.removed', { blockerId: c.id, blockedId: a.id, version: 2, at: new Date().toISOString() });
    await waitFor(() => blockOn(false), 'unblock projected');
    // A member whose account is gone.
    await b.remove();
    expect(await refusal(links)).toEqual({ ok: false, status: 404, message: OFFER_MESSAGES.receiverGone });
  });

  it('counts against the proposer’s daily limit without Premium', async () => {
    const r = await ring('none');
    const [a, b] = r.members;
    await makeOffer(h, a, b);
    await makeOffer(h, a, b);
    expect(await propose(r, a)).toEqual({ ok: false, status: 403, message: OFFER_MESSAGES.dailyLimit });
  });

  it('is cancelled when one of its members is suspended or their account goes', async () => {
    const r = await ring();
    const [a, , c] = r.members;
    const id = await proposed(r);
    await publishEvent(h.adminBus, createEvent(eventRegistry, 'moderation.user.suspended', { userId: c.id, version: 1, reason: 'ban', endsAt: null, at: new Date().toISOString() }));
    await waitFor(async () => (await status(a, id)) === 'Cancelled', 'chain cancelled by the suspension');
    const other = await ring();
    const second = await proposed(other, other.members[1]);
    expect((await respond(h, other.members[2], second, 'Accepted')).body.status).toBe('Pending');
    await other.members[0].remove();
    await waitFor(async () => (await status(other.members[1], second)) === 'Cancelled', 'chain cancelled by the deletion');
  });

  it('is cancelled when two of its members block each other', async () => {
    const r = await ring();
    const [a, b, c] = r.members;
    const id = await proposed(r);
    await publish(h, 'auth.block.added', { blockerId: b.id, blockedId: c.id, version: 1, at: new Date().toISOString() });
    await waitFor(async () => (await status(a, id)) === 'Cancelled', 'chain cancelled by the block');
  });
});

describe('trade’s own consumer reads both offer event versions', () => {
  it('records the receiver’s answer from a version 1 event and from a version 2 event side by side', async () => {
    const [s, r] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] })];
    const o1 = await makeOffer(h, s, r);
    const o2 = await makeOffer(h, s, r);
    const accepted = (o: Json) => ({
      id: o.id,
      version: 2,
      senderId: s.id,
      receiverId: r.id,
      listingId: o.listingOfferedOnID,
      listingIds: [o.listingOfferedOnID],
      status: 'Accepted' as const,
      senderConfirmed: false,
      receiverConfirmed: false,
      createdAt: o.createdAt,
      at: new Date(Date.parse(o.createdAt) + 60_000).toISOString(),
      actorId: r.id,
    });
    // Version 1: as the trade service published before participants existed.
    const old = createEvent(eventRegistry, 'trade.offer.accepted', accepted(o1));
    await publishEvent(h.adminBus, { ...old, schemaVersion: 1 });
    await publish(h, 'trade.offer.accepted', {
      ...accepted(o2),
      participants: [
        { userId: s.id, gives: [], receives: [o2.listingOfferedOnID], accepted: true, confirmed: false },
        { userId: r.id, gives: [o2.listingOfferedOnID], receives: [], accepted: true, confirmed: false },
      ],
    });
    await waitFor(async () => {
      const doc = await h.db.collection<PartyDoc>('trade_parties').findOne({ _id: r.id });
      return !!doc?.offers?.[`o${o1.id}`]?.answeredAt && !!doc.offers[`o${o2.id}`]?.answeredAt;
    }, 'both answers recorded');
    const doc = await h.db.collection<PartyDoc>('trade_parties').findOne({ _id: s.id });
    expect([doc?.offers?.[`o${o1.id}`]?.with, doc?.offers?.[`o${o2.id}`]?.with]).toEqual([r.id, r.id]);
  });
});
