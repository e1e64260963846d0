// Swap chains over real HTTP on the run's stores: the want graph fed by auth's and listing's
// events, the suggestions a member gets, proposing one through trade's query (a stand-in here)
// and the reservation an offer holds until it ends; redeliveries and restarts change nothing.
import { CHAIN_MESSAGES, eventRegistry, type ListingEvent } from '@ruilplein/contracts';
import { createEvent, now } from '@ruilplein/service-kit';
import { handledBy } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACES, send, startChain, waitFor, type ChainHarness, type Json, type TestMember } from './helpers.ts';

let h: ChainHarness;
beforeAll(async () => {
  h = await startChain();
});
afterAll(async () => {
  await h?.close();
});

const suggestions = async (who: TestMember): Promise<Json[]> => {
  const res = await send(h.url, '/api/chain/suggestions', { token: who.token });
  expect(res.status).toBe(200);
  return res.body as Json[];
};
const propose = (who: TestMember, id: string) => send(h.url, `/api/chain/${id}/propose`, { method: 'POST', token: who.token });
const threeMemberIds = async (who: TestMember) => (await suggestions(who)).filter((c) => c.participants.length === 3).map((c) => c.id as string);

interface Ring {
  members: [TestMember, TestMember, TestMember];
  listings: [ListingEvent, ListingEvent, ListingEvent];
}

/** a, b and c with a listing each; a wants b's, b wants c's, c wants a's: c gives to b, b to a, a to c. */
async function ring(places = [PLACES.utrecht, PLACES.utrecht, PLACES.utrecht]): Promise<Ring> {
  const names = ['Anna', 'Bram', 'Cor'];
  const members = (await Promise.all(places.map((p, i) => h.member({ firstName: names[i]!, ...p })))) as Ring['members'];
  const listings = (await Promise.all(members.map((m, i) => h.listing(m, { title: ['Racefiets', 'Naaimachine', 'Tent'][i]! })))) as Ring['listings'];
  const [a, b, c] = members;
  await h.wish(a, listings[1].id);
  await h.wish(b, listings[2].id);
  await h.wish(c, listings[0].id);
  return { members, listings };
}

describe('GET /api/chain/suggestions', () => {
  it('gives the three members of a ring the same chain, in ring order with titles and first names', async () => {
    const { members, listings } = await ring();
    const [a, b, c] = members;
    const [forA] = await suggestions(a);
    expect(forA).toBeDefined();
    expect(forA.participants).toHaveLength(3);
    expect((await suggestions(b))[0].id).toBe(forA.id);
    expect((await suggestions(c))[0].id).toBe(forA.id);
    // Each gives to the next: a gives the tent-owner c her bike… so the one after a is c.
    const n = forA.participants.length;
    for (let i = 0; i < n; i++) expect(forA.participants[(i + 1) % n].receives).toEqual(forA.participants[i].gives);
    const byUser = new Map(forA.participants.map((p: Json) => [p.userId, p]));
    expect(byUser.get(a.id)).toEqual({ userId: a.id, firstName: 'Anna', gives: { listingId: listings[0].id, title: 'Racefiets' }, receives: { listingId: listings[1].id, title: 'Naaimachine' } });
    expect(byUser.get(b.id)).toMatchObject({ firstName: 'Bram', gives: { title: 'Naaimachine' }, receives: { title: 'Tent' } });
    expect(forA.maxDistanceKm).toBe(0);
  });

  it('includes two-member cycles (the UI makes them a plain offer); proposing one is a 400', async () => {
    const a = await h.member();
    const b = await h.member();
    const la = await h.listing(a);
    const lb = await h.listing(b);
    await h.wish(a, lb.id);
    await h.wish(b, la.id);
    const [pair] = await suggestions(a);
    expect(pair.participants.map((p: Json) => p.userId).sort()).toEqual([a.id, b.id].sort());
    const res = await propose(a, pair.id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(CHAIN_MESSAGES.twoMembers);
  });

  it('gives none when two of the members blocked each other, and the chain again once unblocked', async () => {
    const { members } = await ring();
    const [a, b] = members;
    expect(await threeMemberIds(a)).toHaveLength(1);
    await h.publish('auth.block.added', { blockerId: b.id, blockedId: a.id, version: 1, at: now().toISOString() });
    await waitFor(async () => (await threeMemberIds(a)).length === 0, 'the blocked ring gone');
    expect(await threeMemberIds(members[2])).toEqual([]);
    await h.publish('auth.block.removed', { blockerId: b.id, blockedId: a.id, version: 2, at: now().toISOString() });
    await waitFor(async () => (await threeMemberIds(a)).length === 1, 'the ring back');
  });

  it('gives none when a receiver lives beyond the search distance (25 km)', async () => {
    const { members } = await ring([PLACES.utrecht, PLACES.utrecht, PLACES.amsterdam]);
    expect(await suggestions(members[0])).toEqual([]);
    expect(await suggestions(members[2])).toEqual([]);
    const near = await ring([PLACES.utrecht, PLACES.utrecht, PLACES.amersfoort]);
    const [chain] = await suggestions(near.members[0]);
    expect(chain.maxDistanceKm).toBeGreaterThan(15);
    expect(chain.maxDistanceKm).toBeLessThan(25);
  });

  it('drops the chain when a listing is deleted or traded, or a wish withdrawn; a late older wish changes nothing', async () => {
    const deleted = await ring();
    await h.publish('listing.listing.deleted', { id: deleted.listings[1].id, version: 2, ownerId: deleted.members[1].id });
    await waitFor(async () => (await suggestions(deleted.members[0])).length === 0, 'the chain of a deleted listing gone');

    const traded = await ring();
    await h.publish('listing.listing.updated', { ...traded.listings[2], version: 2, active: false });
    await waitFor(async () => (await suggestions(traded.members[0])).length === 0, 'the chain of a traded listing gone');

    const withdrawn = await ring();
    const [a] = withdrawn.members;
    await handledBy(h, 'chain-listings', createEvent(eventRegistry, 'listing.wishlist.removed', { listingId: withdrawn.listings[1].id, userId: a.id, version: 2, at: now().toISOString() }));
    expect(await suggestions(a)).toEqual([]);
    // The add from before the removal, delivered late: the entry stays removed.
    await handledBy(h, 'chain-listings', createEvent(eventRegistry, 'listing.wishlist.added', { listingId: withdrawn.listings[1].id, userId: a.id, version: 1, at: now().toISOString() }));
    expect(await suggestions(a)).toEqual([]);
  });

  it('a redelivered event changes nothing, and a restart rebuilds the same chains from the store', async () => {
    const { members, listings } = await ring();
    const before = await suggestions(members[0]);
    const again = createEvent(eventRegistry, 'listing.listing.updated', { ...listings[0], version: 2, title: 'Racefiets (blauw)' });
    await handledBy(h, 'chain-listings', again);
    await handledBy(h, 'chain-listings', again);
    const after = await suggestions(members[0]);
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after[0].participants.find((p: Json) => p.userId === members[0].id).gives.title).toBe('Racefiets (blauw)');
    await h.restart();
    expect(await suggestions(members[0])).toEqual(after);
  });

  it('a rebuild from the store takes in what another pod handled, and keeps the reservations', async () => {
    const { members } = await ring();
    const [a, , c] = members;
    const [chain] = await suggestions(a);
    expect((await propose(a, chain.id)).status).toBe(200);
    // During a rollout the old pod handled these wishes: in the store, not in this engine.
    const d = await h.member({ firstName: 'Dirk' });
    const e = await h.member({ firstName: 'Eva' });
    const ld = await h.listing(d, { title: 'Boormachine' });
    const le = await h.listing(e, { title: 'Ladder' });
    await h.db.collection('chain_wishes').insertMany([
      { _id: `${d.id}:${le.id}`, userId: d.id, listingId: le.id, version: 1, on: true },
      { _id: `${e.id}:${ld.id}`, userId: e.id, listingId: ld.id, version: 1, on: true },
    ] as never[]);
    expect(await suggestions(d)).toEqual([]);
    expect(await h.service.rebuild.run()).toMatchObject({ reserved: expect.any(Number) });
    const [pair] = await suggestions(d);
    expect(pair.participants.map((p: Json) => p.userId).sort()).toEqual([d.id, e.id].sort());
    // The ring's proposal still holds its listings.
    expect(await suggestions(a)).toEqual([]);
    expect((await propose(c, chain.id)).status).toBe(409);
  });

  it('asks for a token', async () => {
    expect((await send(h.url, '/api/chain/suggestions')).status).toBe(401);
  });
});

describe('POST /api/chain/:id/propose', () => {
  it('asks trade for a three-party offer with the ring as the query reads it, answers its number and reserves the chain', async () => {
    const { members, listings } = await ring();
    const [a, b, c] = members;
    const [chain] = await suggestions(b);
    const asked = h.proposals.length;
    const res = await propose(b, chain.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ offerId: expect.any(Number) });
    const request = h.proposals[asked]!;
    expect(request.chainId).toBe(chain.id);
    expect(request.proposerId).toBe(b.id);
    // The query's order: each link receives what the next one gives.
    const links = request.links;
    for (let i = 0; i < 3; i++) expect(links[i]!.receives).toBe(links[(i + 1) % 3]!.gives);
    const byUser = new Map(links.map((l) => [l.userId, l]));
    expect(byUser.get(a.id)).toEqual({ userId: a.id, gives: listings[0].id, receives: listings[1].id });
    expect(byUser.get(b.id)).toEqual({ userId: b.id, gives: listings[1].id, receives: listings[2].id });
    expect(byUser.get(c.id)).toEqual({ userId: c.id, gives: listings[2].id, receives: listings[0].id });
    // Reserved: out of every suggestion, and a second proposal is refused.
    expect(await suggestions(a)).toEqual([]);
    const second = await propose(c, chain.id);
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(CHAIN_MESSAGES.taken);
    expect(h.proposals).toHaveLength(asked + 1);
  });

  it('refuses a chain sharing a listing with an open proposal (409), and frees it when the offer ends', async () => {
    const { members, listings } = await ring();
    const [a, , c] = members;
    // A second ring through a's and c's listings: a also wants d's, d wants c's.
    const d = await h.member({ firstName: 'Dirk' });
    const ld = await h.listing(d, { title: 'Boormachine' });
    await h.wish(a, ld.id);
    await h.wish(d, listings[2].id);
    const chains = await threeMemberIds(a);
    expect(chains).toHaveLength(2);
    const first = await propose(a, chains[0]!);
    expect(first.status).toBe(200);
    const taken = await propose(a, chains[1]!);
    expect(taken.status).toBe(409);
    expect(await suggestions(d)).toEqual([]);

    await h.offer('trade.offer.rejected', { id: first.body.offerId, chainId: chains[0]!, senderId: a.id, receiverId: c.id, status: 'Rejected' });
    await waitFor(async () => (await threeMemberIds(a)).length === 2, 'both chains free again');
    expect((await propose(a, chains[1]!)).status).toBe(200);
  });

  it('keeps a reservation over a restart and releases it when the offer is cancelled', async () => {
    const { members } = await ring();
    const [a, b] = members;
    const [chain] = await suggestions(a);
    const res = await propose(a, chain.id);
    expect(res.status).toBe(200);
    await h.restart();
    expect(await suggestions(a)).toEqual([]);
    expect((await propose(b, chain.id)).status).toBe(409);
    await h.offer('trade.offer.cancelled', { id: res.body.offerId, chainId: chain.id, senderId: a.id, receiverId: b.id, status: 'Cancelled' });
    await waitFor(async () => (await suggestions(a)).length === 1, 'the chain free again');
  });

  it('passes a refusal of trade on and releases the chain', async () => {
    const { members } = await ring();
    const [a] = members;
    const [chain] = await suggestions(a);
    h.answer = () => ({ ok: false, status: 403, message: 'Je hebt vandaag al het maximale aantal ruilaanbiedingen gedaan.' });
    try {
      const res = await propose(a, chain.id);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Je hebt vandaag al het maximale aantal ruilaanbiedingen gedaan.');
    } finally {
      h.answer = () => ({ ok: true, offerId: 900_000 + h.proposals.length });
    }
    expect((await suggestions(a)).map((c) => c.id)).toEqual([chain.id]);
  });

  it('answers 404 for a chain that is not the caller’s, or gone', async () => {
    const { members } = await ring();
    const [chain] = await suggestions(members[0]);
    const stranger = await h.member();
    const res = await propose(stranger, chain.id);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(CHAIN_MESSAGES.notFound);
    expect((await propose(members[0], 'ab'.repeat(12))).status).toBe(404);
    expect((await propose(members[0], 'not-a-chain')).status).toBe(400);
  });
});
