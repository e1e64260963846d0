// Members blocking members, as trade follows it (auth's events on its members durable): a new offer
// between them refused with 403 either way, their open offers cancelled once (announced), redelivered
// or late events changing nothing more, and offers allowed again after the unblock.
import { BLOCK_MESSAGES } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedOffer, eventsOf, makeOffer, offerPayload, publish, respond, send, startTrade, waitFor, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

const at = '2026-03-01T10:00:00.000Z';
const status = async (who: TestMember, id: number) => (await send(h.url, `/api/tradeoffer/${id}`, { token: who.token })).body.status;
const offer = (from: TestMember, to: TestMember) => send(h.url, '/api/tradeoffer/create', { method: 'POST', token: from.token, json: offerPayload(from, to, to.listing()) });
const cancelledEvents = (id: number) => eventsOf(h, id).filter((e) => e.type === 'trade.offer.cancelled').length;

describe('blocking in trade', () => {
  it('cancels their Pending and Accepted offers once, refuses new ones both ways, and allows them again after the unblock', async () => {
    const [a, b, c] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] })];
    const pending = await makeOffer(h, a, b);
    const accepted = await makeOffer(h, b, a);
    expect((await respond(h, a, accepted.id, 'Accepted')).status).toBe(200);
    const done = await completedOffer(h, a, b);
    const other = await makeOffer(h, c, a);

    const added = { blockerId: a.id, blockedId: b.id, version: 1, at };
    await publish(h, 'auth.block.added', added);
    await waitFor(async () => (await status(a, pending.id)) === 'Cancelled' && (await status(a, accepted.id)) === 'Cancelled', 'offers between them cancelled');
    await waitFor(() => cancelledEvents(pending.id) === 1 && cancelledEvents(accepted.id) === 1, 'cancellations announced');
    expect(await status(a, done.id)).toBe('Completed');
    expect(await status(c, other.id)).toBe('Pending');

    for (const [from, to] of [[a, b], [b, a]] as const) {
      const res = await offer(from, to);
      expect([res.status, res.body.message]).toEqual([403, BLOCK_MESSAGES.cannotTrade]);
    }
    // The same event again (a redelivery under another id): nothing more is cancelled or announced.
    await publish(h, 'auth.block.added', added);
    const marker = await makeOffer(h, c, a);
    await waitFor(() => eventsOf(h, marker.id).length === 1, 'later event seen');
    expect([cancelledEvents(pending.id), cancelledEvents(accepted.id)]).toEqual([1, 1]);

    await publish(h, 'auth.block.removed', { ...added, version: 2 });
    await waitFor(async () => (await offer(b, a)).status === 201, 'offers allowed after the unblock');
    const after = await makeOffer(h, a, b);
    // A late copy of the first block: the stored relation is newer, the new offer stays.
    await publish(h, 'auth.block.added', added);
    const marker2 = await makeOffer(h, c, a);
    await waitFor(() => eventsOf(h, marker2.id).length === 1, 'later event seen');
    expect(await status(a, after.id)).toBe('Pending');
  });

  it('refuses while the other blocked the caller, and cancels when the receiver is the blocker', async () => {
    const [a, b] = [await h.member({ roles: ['Premium'] }), await h.member({ roles: ['Premium'] })];
    const pending = await makeOffer(h, a, b);
    await publish(h, 'auth.block.added', { blockerId: b.id, blockedId: a.id, version: 1, at });
    await waitFor(async () => (await status(b, pending.id)) === 'Cancelled', 'cancelled');
    const res = await offer(a, b);
    expect([res.status, res.body.message]).toEqual([403, BLOCK_MESSAGES.cannotTrade]);
  });
});
