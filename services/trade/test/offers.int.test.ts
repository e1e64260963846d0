// Making and reading trade offers over HTTP on real stores: the seed's create payload with every
// rule the server enforces (sender is the caller, receiver owns the listing, items from the
// inventories, not one's own listing, the message), the daily limit on the Dutch day, the offer
// numbers, and who may read what.
import { DEFAULT_AVATAR, DEFAULT_CRATE, FORMER_MEMBER, OFFER_MESSAGES } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, makeOffer, offerPayload, send, startTrade, waitFor, type TestMember, type TradeHarness } from './helpers.ts';

let h: TradeHarness;
beforeAll(async () => {
  h = await startTrade();
});
afterAll(async () => {
  await h?.close();
});

const create = (who: TestMember | undefined, json: unknown) => send(h.url, '/api/tradeoffer/create', { method: 'POST', token: who?.token, json });
const count = (who: TestMember, query = '') => send(h.url, `/api/tradeoffer/count${query}`, { token: who.token });

describe('POST /api/tradeoffer/create', () => {
  it('makes an offer as the seed sends it: both inventories and the crates, the parties and listings answered', async () => {
    const sanne = await h.member({ firstName: 'Sanne', lastName: 'Jansen' });
    const daan = await h.member({ firstName: 'Daan', lastName: 'de Vries' });
    const drill = daan.listing('Boormachine');
    const table = daan.listing('Eettafel');
    const bike = sanne.listing('Stadsfiets');
    const items = [
      { listingID: drill, userID: daan.id },
      { listingID: bike, userID: sanne.id },
      { listingID: 'krat-bier', userID: sanne.id },
      { listingID: DEFAULT_CRATE.listingID, userID: daan.id },
      { listingID: drill.toUpperCase(), userID: daan.id },
    ];
    const res = await create(sanne, { ...offerPayload(sanne, daan, drill, items), message: '  Ruilen we?  ' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const offer = res.body;
    expect(Number.isInteger(offer.id) && offer.id > 0).toBe(true);
    expect(offer).toMatchObject({
      senderID: sanne.id,
      receiverID: daan.id,
      sender: { id: sanne.id, firstName: 'Sanne', lastName: 'Jansen', profilePicture: `/uploads/avatars/${sanne.id}.webp` },
      receiver: { id: daan.id, firstName: 'Daan', lastName: 'de Vries' },
      status: 'Pending',
      message: 'Ruilen we?',
      senderConfirmed: false,
      receiverConfirmed: false,
      listingOfferedOnID: drill,
      listingOfferedOn: { listingID: drill, userID: daan.id, title: 'Boormachine', imageUrl: `/uploads/listings/${drill}.webp`, isDefault: false },
    });
    // Requested (the receiver's) and offered (the sender's), duplicates once, the crate a default item.
    expect(offer.requestedListings.map((i: { listingID: string }) => i.listingID)).toEqual([drill, 'krat-bier']);
    expect(offer.offeredListings.map((i: { listingID: string }) => i.listingID)).toEqual([bike, 'krat-bier']);
    expect(offer.items).toHaveLength(4);
    expect(offer.offeredListings[1]).toMatchObject({ userID: sanne.id, title: 'Krat Bier', isDefault: true });
    expect(offer.requestedListings[0]).toMatchObject({ title: 'Boormachine', description: 'Boormachine, goed onderhouden.' });
    expect(table).not.toBe(drill);

    // Announced with its listings (the crate is none) and read back the same by both parties.
    await waitFor(() => eventsOf(h, offer.id).length === 1, 'created event');
    expect(eventsOf(h, offer.id)[0]).toMatchObject({
      type: 'trade.offer.created',
      payload: { id: offer.id, version: 1, senderId: sanne.id, receiverId: daan.id, listingId: drill, listingIds: [drill, bike], status: 'Pending' },
    });
    for (const who of [sanne, daan]) expect((await send(h.url, `/api/tradeoffer/${offer.id}`, { token: who.token })).body).toEqual(offer);
  });

  it('sends the default message when none or only spaces is given, and numbers offers one up', async () => {
    const a = await h.member();
    const b = await h.member();
    const on = b.listing();
    const first = await create(a, { receiverID: b.id, listingOfferedOnID: on, items: [{ listingID: on, userID: b.id }] });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe('Zullen we ruilen? 😄');
    const second = await create(b, { ...offerPayload(b, a, a.listing()), message: '   ' });
    expect(second.body.message).toBe('Zullen we ruilen? 😄');
    expect(second.body.id).toBe(first.body.id + 1);
    // No item is needed (spec 2 §5: no check that an offer has one): the listing it is made on is
    // always requested, added when left out (probe finding 2).
    const wanted = b.listing();
    const bare = await create(a, { receiverID: b.id, listingOfferedOnID: wanted, message: null, items: [] });
    expect(bare.status).toBe(201);
    expect(bare.body.items.map((i: { listingID: string }) => i.listingID)).toEqual([wanted]);
    const read = await send(h.url, `/api/tradeoffer/${bare.body.id}`, { token: b.token });
    expect(read.status).toBe(200);
    expect(read.body.requestedListings.map((i: { listingID: string }) => i.listingID)).toEqual([wanted]);
  });

  it('refuses what the rules forbid, with a Dutch message, changing nothing', async () => {
    const me = await h.member();
    const them = await h.member();
    const third = await h.member();
    const theirs = them.listing();
    const mine = me.listing();
    const thirds = third.listing();
    const cases: Array<[string, unknown, number, string?]> = [
      ['own listing (receiver is me)', offerPayload(me, me, mine), 400, OFFER_MESSAGES.ownListing],
      ['own listing, another receiver named', offerPayload(me, them, mine), 400, OFFER_MESSAGES.ownListing],
      ['listing of someone else than the receiver', offerPayload(me, them, thirds, [{ listingID: thirds, userID: third.id }]), 400, OFFER_MESSAGES.receiverNotOwner],
      ['the crate as the listing offered on', { ...offerPayload(me, them, theirs), listingOfferedOnID: 'krat-bier' }, 400, OFFER_MESSAGES.invalidListing],
      ['an item of a third member', offerPayload(me, them, theirs, [{ listingID: thirds, userID: third.id }]), 400, OFFER_MESSAGES.itemNotOfParty],
      ['an item attributed to the wrong party', offerPayload(me, them, theirs, [{ listingID: mine, userID: them.id }]), 400, OFFER_MESSAGES.itemUnavailable],
      ['an unknown listing', offerPayload(me, them, theirs, [{ listingID: 'a'.repeat(24), userID: me.id }]), 400, OFFER_MESSAGES.itemUnavailable],
      ['no receiver', { listingOfferedOnID: theirs, items: [] }, 400, OFFER_MESSAGES.receiverRequired],
      ['no listing', { receiverID: them.id, items: [] }, 400, OFFER_MESSAGES.listingRequired],
      ['a malformed receiver', { ...offerPayload(me, them, theirs), receiverID: 'daan' }, 400, OFFER_MESSAGES.invalidMember],
      ['a malformed listing', { ...offerPayload(me, them, theirs), listingOfferedOnID: '../x' }, 400, OFFER_MESSAGES.invalidListing],
      ['a malformed item', { ...offerPayload(me, them, theirs), items: [{ listingID: 5, userID: me.id }] }, 400],
      ['items not a list', { ...offerPayload(me, them, theirs), items: 'krat-bier' }, 400],
      ['too many items', { ...offerPayload(me, them, theirs), items: Array.from({ length: 51 }, () => ({ listingID: 'krat-bier', userID: me.id })) }, 400, OFFER_MESSAGES.tooManyItems],
      ['a message too long', { ...offerPayload(me, them, theirs), message: 'x'.repeat(1001) }, 400, OFFER_MESSAGES.messageTooLong],
      ['a body that is no object', 'ruilen', 400],
      ['another sender', { ...offerPayload(me, them, theirs), senderID: third.id }, 403],
      ['an unknown receiver', offerPayload(me, { id: 'b'.repeat(24) }, theirs), 404, OFFER_MESSAGES.receiverGone],
    ];
    for (const [name, json, status, message] of cases) {
      const res = await create(me, json);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
      if (message) expect(res.body.message, name).toBe(message);
    }
    expect((await create(undefined, offerPayload(me, them, theirs))).status).toBe(401);
    const broken = await fetch(`${h.url}/api/tradeoffer/create`, { method: 'POST', headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' }, body: '{"receiverID":' });
    expect(broken.status).toBe(400);
    // Nothing was made: no offer listed, none counted for the day.
    expect((await send(h.url, '/api/tradeoffer/my', { token: me.token })).body).toEqual([]);
    expect((await count(me)).body.count).toBe(0);
  });

  it('refuses an offer to a deleted member, and one by a deleted member', async () => {
    const me = await h.member();
    const gone = await h.member();
    const on = gone.listing();
    await gone.remove();
    expect((await create(me, offerPayload(me, gone, on))).body.message).toBe(OFFER_MESSAGES.receiverGone);
    const other = await h.member();
    expect((await create(gone, offerPayload(gone, other, other.listing()))).status).toBe(401);
  });
});

describe('the daily limit (2 a day in the Netherlands without Premium)', () => {
  const at = (iso: string) => {
    h.now = new Date(iso);
  };
  afterAll(() => {
    h.now = undefined;
  });

  it('lets a standard member make two offers a day, refuses the third with the upgrade message', async () => {
    at('2025-05-14T10:00:00Z');
    const me = await h.member();
    const them = await h.member();
    await makeOffer(h, me, them);
    await makeOffer(h, me, them);
    const third = await create(me, offerPayload(me, them, them.listing()));
    expect(third.status).toBe(403);
    expect(third.body.message).toBe(OFFER_MESSAGES.dailyLimit);
    expect((await count(me)).body).toEqual({ count: 2, date: '2025-05-14', limit: 2 });
    // Received offers do not count.
    expect((await count(them)).body.count).toBe(0);
    // The limit is checked before the inventories are asked.
    const asked = h.inventoryCalls;
    expect((await create(me, offerPayload(me, them, them.listing()))).status).toBe(403);
    expect(h.inventoryCalls).toBe(asked);
  });

  it('counts the Dutch calendar day: winter time (UTC+1) and summer time (UTC+2)', async () => {
    const me = await h.member();
    const them = await h.member();
    // 23:30 in Amsterdam on 29 March (winter time): still the 29th.
    at('2025-03-29T22:30:00Z');
    await makeOffer(h, me, them);
    await makeOffer(h, me, them);
    expect((await create(me, offerPayload(me, them, them.listing()))).status).toBe(403);
    at('2025-03-29T22:59:59Z');
    expect((await create(me, offerPayload(me, them, them.listing()))).status).toBe(403);
    // Midnight in Amsterdam (23:00 UTC): a new day, though UTC still says the 29th.
    at('2025-03-29T23:00:00Z');
    await makeOffer(h, me, them);
    expect((await count(me)).body).toEqual({ count: 1, date: '2025-03-30', limit: 2 });
    expect((await count(me, '?date=2025-03-29')).body.count).toBe(2);

    // Summer time: midnight is 22:00 UTC.
    const other = await h.member();
    at('2025-07-01T21:59:00Z');
    await makeOffer(h, other, them);
    await makeOffer(h, other, them);
    expect((await create(other, offerPayload(other, them, them.listing()))).status).toBe(403);
    at('2025-07-01T22:00:00Z');
    await makeOffer(h, other, them);
    expect((await count(other)).body.date).toBe('2025-07-02');
    expect((await count(other, '?date=2025-07-01')).body.count).toBe(2);
  });

  it('has no limit for Premium (role or running subscription) and admins, decided by auth’s events, never the token', async () => {
    at('2025-05-15T09:00:00Z');
    const them = await h.member();
    const premium = await h.member({ roles: ['Gebruiker', 'Premium'] });
    const subscriber = await h.member({ subscriptionEndsAt: '2025-06-01T00:00:00.000Z' });
    const admin = await h.member({ roles: ['Gebruiker', 'Beheerder'] });
    for (const who of [premium, subscriber, admin]) {
      for (let i = 0; i < 3; i++) await makeOffer(h, who, them);
      expect((await count(who)).body).toEqual({ count: 3, date: '2025-05-15', limit: null });
    }
    // A token claiming Premium does not make a standard member one.
    const claims = await h.member({}, { tokenRoles: ['Gebruiker', 'Premium', 'Beheerder'] });
    await makeOffer(h, claims, them);
    await makeOffer(h, claims, them);
    expect((await create(claims, offerPayload(claims, them, them.listing()))).status).toBe(403);
    // A subscription that ended is no Premium any more.
    at('2025-06-02T09:00:00Z');
    await makeOffer(h, subscriber, them);
    await makeOffer(h, subscriber, them);
    expect((await create(subscriber, offerPayload(subscriber, them, them.listing()))).status).toBe(403);
    // Losing Premium (auth's update) brings the limit back.
    await premium.update({ roles: ['Gebruiker'] });
    await makeOffer(h, premium, them);
    await makeOffer(h, premium, them);
    expect((await create(premium, offerPayload(premium, them, them.listing()))).body.message).toBe(OFFER_MESSAGES.dailyLimit);
  });

  it('lets exactly two of many offers made at once through', async () => {
    at('2025-05-16T12:00:00Z');
    for (let round = 0; round < 5; round++) {
      const me = await h.member();
      const them = await h.member();
      const results = await Promise.all(Array.from({ length: 5 }, () => create(me, offerPayload(me, them, them.listing()))));
      expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.body))).toEqual([201, 201, 403, 403, 403]);
      expect((await count(me)).body.count).toBe(2);
      expect((await send(h.url, '/api/tradeoffer/my', { token: me.token })).body).toHaveLength(2);
    }
  });
});

describe('GET /api/tradeoffer/count', () => {
  it('answers the caller’s own count only, and refuses a date that is none', async () => {
    const me = await h.member();
    const other = await h.member();
    expect((await count(me, `?userId=${me.id}`)).body).toMatchObject({ count: 0, limit: 2 });
    expect((await count(me, `?userId=${me.id.toUpperCase()}&date=2025-01-31`)).body).toEqual({ count: 0, date: '2025-01-31', limit: 2 });
    expect((await count(me, `?userId=${other.id}`)).status).toBe(403);
    for (const date of ['2025-02-30', 'gisteren', '2025-1-5', '31-01-2025', '2025-01-31T10:00:00Z']) {
      const res = await count(me, `?date=${encodeURIComponent(date)}`);
      expect(res.status, date).toBe(400);
      expect(res.body.message).toBe('Ongeldige datum');
    }
    expect((await send(h.url, '/api/tradeoffer/count')).status).toBe(401);
  });
});

describe('reading offers', () => {
  it('lists a member’s offers, made and received, newest first; a third member sees none of them', async () => {
    const a = await h.member();
    const b = await h.member();
    const c = await h.member();
    const first = await makeOffer(h, a, b);
    const second = await makeOffer(h, b, a);
    const mine = (await send(h.url, '/api/tradeoffer/my', { token: a.token })).body;
    expect(mine.map((o: { id: number }) => o.id)).toEqual([second.id, first.id]);
    expect((await send(h.url, '/api/tradeoffer/my', { token: b.token })).body.map((o: { id: number }) => o.id)).toEqual([second.id, first.id]);
    expect((await send(h.url, '/api/tradeoffer/my', { token: c.token })).body).toEqual([]);
    expect((await send(h.url, '/api/tradeoffer/my')).status).toBe(401);
  });

  it('shows one offer to its two parties and admins; others get 403, unknown 404, malformed 400', async () => {
    const a = await h.member();
    const b = await h.member();
    const c = await h.member();
    const admin = await h.member({ roles: ['Gebruiker', 'Moderator'] });
    const offer = await makeOffer(h, a, b);
    const get = (who: TestMember | undefined, id: string | number = offer.id) => send(h.url, `/api/tradeoffer/${id}`, { token: who?.token });
    expect((await get(a)).status).toBe(200);
    expect((await get(b)).status).toBe(200);
    expect((await get(admin)).body.id).toBe(offer.id);
    const c403 = await get(c);
    expect(c403.status).toBe(403);
    expect(c403.body.message).toBe(OFFER_MESSAGES.notParty);
    expect((await get(undefined)).status).toBe(401);
    // An admin's token (signed by auth) is enough for moderation, before the projection knows the role.
    const newAdmin = await h.member({}, { tokenRoles: ['Gebruiker', 'Beheerder'] });
    expect((await get(newAdmin)).status).toBe(200);
    expect((await get(a, 999_999_999)).body.message).toBe(OFFER_MESSAGES.notFound);
    expect((await get(a, 999_999_999)).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '01', '9'.repeat(20)]) expect((await get(a, bad)).status, bad).toBe(400);
  });

  it('shows a party whose account is gone as a former member, the offer kept', async () => {
    const a = await h.member();
    const b = await h.member();
    const offer = await makeOffer(h, a, b);
    await b.remove();
    await waitFor(async () => (await send(h.url, `/api/tradeoffer/${offer.id}`, { token: a.token })).body.status === 'Cancelled', 'offer cancelled');
    const read = (await send(h.url, `/api/tradeoffer/${offer.id}`, { token: a.token })).body;
    expect(read.receiver).toEqual({ id: b.id, ...FORMER_MEMBER, profilePicture: DEFAULT_AVATAR });
  });
});
