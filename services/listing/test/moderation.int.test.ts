// Moderation's suspensions in the listing service, under the event names of today and of before the
// rename: a suspended member's listings leave (inactive, announced, counted 0); the end is recorded
// and relists nothing; an event no newer than what listing knows (a redelivery, a replay, a late
// old-name copy) changes nothing, so listings made after the end stay.
import { eventRegistry, type EventEnvelope, type Listing } from '@ruilplein/contracts';
import { createEvent, ensureStream, publishEvent, startOutboxRelay, SUSPENSION_STATES } from '@ruilplein/service-kit';
import { body, handledBy, suspensionEvents } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingContext } from '../src/app.ts';
import type { CategoryCache } from '../src/categories/cache.ts';
import { deactivateListingsOfSuspendedMember } from '../src/listings/lifecycle.ts';
import { call, createListing, earlier, logger, PLACES, startListing, type ListingHarness, type TestMember } from './listings.helpers.ts';

let h: ListingHarness;
let viewer: TestMember;

beforeAll(async () => {
  h = await startListing();
  viewer = await h.member({ firstName: 'Kijker', ...PLACES.utrecht });
  await ensureStream(h.adminBus, 'moderation');
});
afterAll(async () => {
  await h?.close();
});

const { suspensions, ends: expiries } = suspensionEvents(() => new Date().toISOString());
/** Issue 27: an admin's lift is a suspension-ended with `cause: 'lifted'`, followed on the same durable and handled as any end. */
const ends = {
  ...expiries,
  'moderation.user.suspension-ended (lifted by an admin)': (userId: string, version: number) =>
    createEvent(eventRegistry, 'moderation.user.suspension-ended', { userId, version, cause: 'lifted', at: new Date().toISOString() }),
};

const updatesOf = (id: string) => h.events.filter((e) => e.type === 'listing.listing.updated' && (e.payload as { id: string }).id === id).map((e) => e.payload as { active: boolean; version: number });
const activeOf = async (member: TestMember) => Object.fromEntries(((await body(await call(h.url, '/api/listing/my', { token: member.token }))) as Listing[]).map((l) => [l.id, l.isActive]));
const stateOf = (userId: string) => h.db.collection<{ _id: string }>(SUSPENSION_STATES).findOne({ _id: userId });
/** Publishes and waits until the consumer handled the event (its claim is done), whatever it did. */
const handled = (event: EventEnvelope) => handledBy(h, 'listing-moderation', event);

describe('moderation events', () => {
  it.each(Object.keys(suspensions) as (keyof typeof suspensions)[])('%s takes the member’s listings out (inactive, announced) and counts them 0', async (kind) => {
    const suspended = await h.member({ firstName: 'Geschorst' });
    const listings = await earlier(7, async () => [await createListing(h.url, suspended.token), await createListing(h.url, suspended.token)]);
    await publishEvent(h.adminBus, suspensions[kind](suspended.id, 1));
    for (const listing of listings) {
      await expect.poll(() => updatesOf(listing.id).at(-1)).toMatchObject({ active: false, version: 2 });
      expect((await call(h.url, `/api/listing/${listing.id}`, { token: viewer.token })).status).toBe(404);
    }
    await expect
      .poll(() => h.events.filter((e) => e.type === 'listing.owner.counted' && (e.payload as { userId: string }).userId === suspended.id).at(-1)?.payload)
      .toMatchObject({ activeListings: 0 });
    expect(Object.values(await activeOf(suspended))).toEqual([false, false]);
    expect((await body(await call(h.url, `/api/listing/inventory/${suspended.id}`, { token: viewer.token }))).map((i: { listingID: string }) => i.listingID)).toEqual(['krat-bier']);
    expect(await stateOf(suspended.id)).toMatchObject({ version: 1, suspended: true });
  });

  it.each(Object.keys(ends) as (keyof typeof ends)[])('%s is recorded and relists nothing; a suspension no newer than it takes nothing made since', async (kind) => {
    const member = await h.member({ firstName: 'Terug' });
    const before = await createListing(h.url, member.token);
    const suspension = suspensions['moderation.user.suspended (ban)'](member.id, 1);
    await handled(suspension);
    await handled(ends[kind](member.id, 2));
    expect(await stateOf(member.id)).toEqual({ _id: member.id, version: 2, suspended: false });
    expect(await activeOf(member)).toEqual({ [before.id]: false });
    const after = await createListing(h.url, member.token);
    // The same suspension delivered again (a copy with its own id, as a replay or an old-name copy
    // has), and older states behind the end: nothing is applied twice or out of order.
    await handled({ ...suspension, id: crypto.randomUUID() });
    await handled(suspensions['moderation.user.banned (before the rename)'](member.id, 1));
    await handled(suspensions['moderation.user.suspended (warnings)'](member.id, 2));
    expect(await activeOf(member)).toEqual({ [before.id]: false, [after.id]: true });
    expect(updatesOf(after.id)).toEqual([]);
    // A newer suspension still applies.
    await handled(suspensions['moderation.user.suspended (warnings)'](member.id, 3));
    expect(await activeOf(member)).toEqual({ [before.id]: false, [after.id]: false });
  });

  it('a suspension delivered again changes nothing twice', async () => {
    const member = await h.member({ firstName: 'Twee' });
    const listing = await createListing(h.url, member.token);
    const suspension = suspensions['moderation.user.suspended (warnings)'](member.id, 1);
    await handled(suspension);
    await expect.poll(() => updatesOf(listing.id)).toEqual([expect.objectContaining({ active: false, version: 2 })]);
    await handled({ ...suspension, id: crypto.randomUUID() });
    await handled(suspensions['moderation.user.blocked (before the rename)'](member.id, 1));
    expect(updatesOf(listing.id)).toHaveLength(1);
    // The hook itself is safe to repeat: nothing left to take out.
    const categories = { current: () => ({ list: [], json: '[]', etag: '""' }) } as unknown as CategoryCache;
    const relay = startOutboxRelay({ bus: h.bus, db: h.db, collections: ['listings', 'listing_owners'], logger });
    try {
      expect(await deactivateListingsOfSuspendedMember(listingContext(h.db, categories, relay, logger), member.id)).toBe(0);
    } finally {
      await relay.stop();
    }
  });
});
