// A suspension from the moderation service (a ban or the automatic one, under the event names of
// today and of before the rename) cancels the member's open offers; its end is recorded, and an
// event no newer than what trade knows (a redelivery, a replay, a late old-name copy) changes nothing.
import { eventRegistry, type EventEnvelope } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent, SUSPENSION_STATES } from '@ruilplein/service-kit';
import { handledBy, suspensionEvents } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedOffer, makeOffer, respond, send, startTrade, waitFor, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;

beforeAll(async () => {
  await ensureStream((h = await startTrade()).adminBus, 'moderation');
  await h.adminBus.jsm.streams.purge('moderation');
});
afterAll(() => h.close());

const { suspensions, ends: expiries } = suspensionEvents(() => new Date().toISOString());
/** Issue 27: an admin's lift is a suspension-ended with `cause: 'lifted'`, followed on the same durable and handled as any end. */
const ends = {
  ...expiries,
  'moderation.user.suspension-ended (lifted by an admin)': (userId: string, version: number) =>
    createEvent(eventRegistry, 'moderation.user.suspension-ended', { userId, version, cause: 'lifted', at: new Date().toISOString() }),
};

const statusOf = async (viewer: TestMember, id: number) => (await send(h.url, `/api/tradeoffer/${id}`, { token: viewer.token })).body.status;
const stateOf = (userId: string) => h.db.collection<{ _id: string }>(SUSPENSION_STATES).findOne({ _id: userId });
/** Publishes and waits until the consumer handled the event (its claim is done), whatever it did. */
const handled = (event: EventEnvelope) => handledBy(h, 'trade-moderation', event);

describe('moderation events in trade', () => {
  it.each(Object.keys(suspensions) as (keyof typeof suspensions)[])('%s: Pending and Accepted offers of the member are cancelled, Completed ones stay', async (kind) => {
    const [bad, other, third] = [await h.member(), await h.member(), await h.member()];
    const pending = await makeOffer(h, bad, other);
    const accepted = await makeOffer(h, other, bad);
    expect((await respond(h, bad, accepted.id, 'Accepted')).status).toBe(200);
    const completed = await completedOffer(h, bad, other);
    const unrelated = await makeOffer(h, other, third);
    await publishEvent(h.adminBus, suspensions[kind](bad.id, 1));
    await waitFor(async () => (await statusOf(other, pending.id)) === 'Cancelled' && (await statusOf(other, accepted.id)) === 'Cancelled', 'open offers cancelled');
    expect(await statusOf(other, completed.id)).toBe('Completed');
    expect(await statusOf(other, unrelated.id)).toBe('Pending');
    await waitFor(() => h.events.some((e) => e.type === 'trade.offer.cancelled' && (e.payload as { id: number }).id === pending.id), 'the cancellation announced');
    expect(await stateOf(bad.id)).toMatchObject({ version: 1, suspended: true });
  });

  it.each(Object.keys(ends) as (keyof typeof ends)[])('%s is recorded; a suspension no newer than it, repeated or late, cancels nothing made since', async (kind) => {
    const [bad, other] = [await h.member(), await h.member()];
    const before = await makeOffer(h, bad, other);
    const suspension = suspensions['moderation.user.suspended (ban)'](bad.id, 1);
    await handled(suspension);
    expect(await statusOf(other, before.id)).toBe('Cancelled');
    await handled(ends[kind](bad.id, 2));
    expect(await stateOf(bad.id)).toEqual({ _id: bad.id, version: 2, suspended: false });
    // What the suspension cancelled stays cancelled; the member trades again.
    expect(await statusOf(other, before.id)).toBe('Cancelled');
    const after = await makeOffer(h, bad, other);
    // The same suspension delivered again (a copy with its own id, as a replay or an old-name copy
    // has), and older states behind the end: nothing is applied twice or out of order.
    await handled({ ...suspension, id: crypto.randomUUID() });
    await handled(suspensions['moderation.user.blocked (before the rename)'](bad.id, 1));
    await handled(suspensions['moderation.user.suspended (warnings)'](bad.id, 2));
    expect(await statusOf(other, after.id)).toBe('Pending');
    expect(await stateOf(bad.id)).toEqual({ _id: bad.id, version: 2, suspended: false });
    // A newer suspension still applies.
    await handled(suspensions['moderation.user.suspended (warnings)'](bad.id, 3));
    expect(await statusOf(other, after.id)).toBe('Cancelled');
  });

  it('a suspension repeated with the same version before any end cancels what is open once', async () => {
    const [bad, other] = [await h.member(), await h.member()];
    const open = await makeOffer(h, bad, other);
    const suspension = suspensions['moderation.user.suspended (ban)'](bad.id, 1);
    await handled(suspension);
    expect(await statusOf(other, open.id)).toBe('Cancelled');
    const cancellations = () => h.events.filter((e) => e.type === 'trade.offer.cancelled' && (e.payload as { id: number }).id === open.id).length;
    await waitFor(() => cancellations() === 1, 'the cancellation announced');
    await handled({ ...suspension, id: crypto.randomUUID() });
    await handled(suspensions['moderation.user.banned (before the rename)'](bad.id, 1));
    expect(cancellations()).toBe(1);
  });
});
