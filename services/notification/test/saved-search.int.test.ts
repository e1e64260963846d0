// A saved search's alert (issue 23): listing's `listing.saved-search.matched` makes one notification
// of kind `saved-search` ('Nieuw voor "<search>": <title>, <n> km', a link to the listing), mailed
// as the search's alert says (direct at once, off not at all) unless the member turned the kind
// off; a redelivery or the same match under a new event id adds nothing.
import { eventRegistry, type SavedSearchMatchedEvent } from '@ruilplein/contracts';
import { createEvent, nowMs } from '@ruilplein/service-kit';
import { handledBy } from '@ruilplein/service-kit/testing';
import { mongo } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOf, send, startNotification, waitFor, type NotificationHarness, type TestMember } from './helpers.ts';

let h: NotificationHarness;
const oid = () => new mongo.ObjectId().toHexString();

beforeAll(async () => {
  h = await startNotification();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

type Match = SavedSearchMatchedEvent['matches'][number];
const matched = (members: TestMember[], over: Partial<Match> = {}, title = 'Kinderfiets'): SavedSearchMatchedEvent => ({
  listingId: oid(),
  title,
  matches: members.map((m) => ({ userId: m.id, distanceKm: 3, searchId: oid(), searchName: 'fiets', alert: 'direct', ...over })),
  version: 1,
  at: new Date(nowMs()).toISOString(),
});
/** Long enough for a mail that should not come to have come. */
const moment = () => {
  const deadline = performance.now() + 300;
  return waitFor(() => performance.now() > deadline, 'a moment');
};

describe('saved-search alerts', () => {
  it('notifies once with a link to the listing and mails at once for a direct alert', async () => {
    const anna = await h.member({ firstName: 'Anna' });
    const payload = matched([anna]);
    const event = createEvent(eventRegistry, 'listing.saved-search.matched', payload);
    await handledBy(h, 'notification-listing', event);
    await handledBy(h, 'notification-listing', event);
    await handledBy(h, 'notification-listing', createEvent(eventRegistry, 'listing.saved-search.matched', payload));
    const list = await h.list(anna);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ kind: 'saved-search', title: 'Nieuw voor "fiets": Kinderfiets, 3 km', link: `/dashboard/listing/${payload.listingId}`, readAt: null });
    await waitFor(async () => (await h.mails(emailOf(anna.id))).length === 1, 'the direct mail');
    const [mail] = await h.mails(emailOf(anna.id));
    expect(mail!.subject).toBe('Nieuw voor "fiets": Kinderfiets, 3 km');
    await moment();
    expect(await h.mails(emailOf(anna.id))).toHaveLength(1);
  });

  it('mails nothing for an alert off, nor when the member turned the kind off; a distance with a decimal comma, none without places', async () => {
    const bram = await h.member({ firstName: 'Bram' });
    await h.publish('listing.saved-search.matched', matched([bram], { alert: 'off', distanceKm: 2.5 }));
    const cas = await h.member({ firstName: 'Cas' });
    expect((await send(h.url, '/api/notification/preferences', { method: 'PUT', token: cas.token, json: { 'saved-search': 'off' } })).status).toBe(200);
    await h.publish('listing.saved-search.matched', matched([cas], { distanceKm: null, searchName: 'Lampen' }, 'Bureaulamp'));
    expect((await h.until(bram, 1))[0]).toMatchObject({ kind: 'saved-search', title: 'Nieuw voor "fiets": Kinderfiets, 2,5 km' });
    expect((await h.until(cas, 1))[0]).toMatchObject({ kind: 'saved-search', title: 'Nieuw voor "Lampen": Bureaulamp' });
    await moment();
    expect(await h.mails(emailOf(bram.id))).toEqual([]);
    expect(await h.mails(emailOf(cas.id))).toEqual([]);
  });

  it('notifies every member of one event once, each with their own search and distance', async () => {
    const members = [await h.member({ firstName: 'Dirk' }), await h.member({ firstName: 'Eva' }), await h.member({ firstName: 'Fenna' })];
    const payload = matched(members, { alert: 'off' });
    payload.matches[1] = { ...payload.matches[1]!, searchName: 'Kinderspullen', distanceKm: 7.5 };
    const event = createEvent(eventRegistry, 'listing.saved-search.matched', payload);
    await handledBy(h, 'notification-listing', event);
    await handledBy(h, 'notification-listing', event);
    const titles = await Promise.all(members.map(async (m) => (await h.list(m)).map((n) => n.title)));
    expect(titles).toEqual([['Nieuw voor "fiets": Kinderfiets, 3 km'], ['Nieuw voor "Kinderspullen": Kinderfiets, 7,5 km'], ['Nieuw voor "fiets": Kinderfiets, 3 km']]);
  });
});
