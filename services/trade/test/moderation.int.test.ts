// A ban or an automatic block from the moderation service cancels the member's open offers.
import { eventRegistry } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent } from '@ruilplein/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedOffer, makeOffer, respond, send, startTrade, waitFor, type TradeHarness } from './helpers.ts';

let h: TradeHarness;

beforeAll(async () => {
  await ensureStream((h = await startTrade()).adminBus, 'moderation');
  await h.adminBus.jsm.streams.purge('moderation');
});
afterAll(() => h.close());

const block = (type: 'moderation.user.banned' | 'moderation.user.blocked', userId: string) =>
  createEvent(eventRegistry, type, { userId, version: 1, reason: type === 'moderation.user.banned' ? 'ban' : 'warnings', unblockDate: null, at: new Date().toISOString() });

describe('moderation events in trade', () => {
  it.each(['moderation.user.banned', 'moderation.user.blocked'] as const)('%s: Pending and Accepted offers of the member are cancelled, Completed ones stay', async (type) => {
    const [bad, other, third] = [await h.member(), await h.member(), await h.member()];
    const pending = await makeOffer(h, bad, other);
    const accepted = await makeOffer(h, other, bad);
    expect((await respond(h, bad, accepted.id, 'Accepted')).status).toBe(200);
    const completed = await completedOffer(h, bad, other);
    const unrelated = await makeOffer(h, other, third);
    await publishEvent(h.adminBus, block(type, bad.id));
    const statusOf = async (id: number) => (await send(h.url, `/api/tradeoffer/${id}`, { token: other.token })).body.status;
    await waitFor(async () => (await statusOf(pending.id)) === 'Cancelled' && (await statusOf(accepted.id)) === 'Cancelled', 'open offers cancelled');
    expect(await statusOf(completed.id)).toBe('Completed');
    expect(await statusOf(unrelated.id)).toBe('Pending');
    await waitFor(() => h.events.some((e) => e.type === 'trade.offer.cancelled' && (e.payload as { id: number }).id === pending.id), 'the cancellation announced');
  });
});
