// The notification service on real stores: each kind from its producer's event, the inbox routes,
// preferences, mail (direct, chat throttle, digest at 08:00 Dutch time, one-click unsubscribe), no
// duplicate on redelivery, blocks, account deletion and the 90-day clean-up.
import { DEFAULT_MAIL_PREFERENCES, eventRegistry, NOTIFICATION_MESSAGES } from '@ruilplein/contracts';
import { createEvent, nowMs, wallClockMs } from '@ruilplein/service-kit';
import { handledBy, offerEvent, testClock } from '@ruilplein/service-kit/testing';
import { mongo } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dutchDayAndHour } from '../src/notifications/keys.ts';
import { emailOf, send, startNotification, waitFor, type NotificationHarness, type TestMember } from './helpers.ts';

let h: NotificationHarness;
const iso = () => new Date(nowMs()).toISOString();
const oid = () => new mongo.ObjectId().toHexString();

beforeAll(async () => {
  h = await startNotification();
}, 60_000);

afterAll(async () => {
  await (await testClock()).move(0);
  await h?.close();
});

const member = (firstName: string) => h.member({ firstName });
const unread = async (m: TestMember) => (await send(h.url, '/api/notification/unread-count', { token: m.token })).body.count as number;

describe('trade', () => {
  it("tells the receiver of a new offer 'Nieuw ruilaanbod van <firstName>', counts it unread and mails it at once", async () => {
    const [anna, bram] = await Promise.all([member('Anna'), member('Bram')]);
    const offer = offerEvent({ senderId: anna.id, receiverId: bram.id });
    await h.publish('trade.offer.created', offer);
    const [n] = await h.until(bram, 1);
    expect(n).toMatchObject({ kind: 'offer-received', title: 'Nieuw ruilaanbod van Anna', link: `/dashboard/tradeoffer/${offer.id}`, readAt: null });
    expect(await unread(bram)).toBe(1);
    expect(await h.list(anna)).toEqual([]);
    await waitFor(async () => (await h.mails(emailOf(bram.id))).length === 1, 'the direct mail');
    const [mail] = await h.mails(emailOf(bram.id));
    expect(mail!.subject).toBe('Nieuw ruilaanbod van Anna');
    expect(mail!.text).toContain(`https://ruilplein.test/dashboard/tradeoffer/${offer.id}`);
    expect(mail!.headers['List-Unsubscribe']).toMatch(/^<https:\/\/ruilplein\.test\/api\/notification\/unsubscribe\?token=.+>$/);
    expect(mail!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('never notifies twice: the same event again, or the same state under a new event id', async () => {
    const [anna, bram] = await Promise.all([member('Anna'), member('Bram')]);
    const offer = offerEvent({ senderId: anna.id, receiverId: bram.id });
    const event = createEvent(eventRegistry, 'trade.offer.created', offer);
    await handledBy(h, 'notification-trade', event);
    await handledBy(h, 'notification-trade', event);
    await handledBy(h, 'notification-trade', createEvent(eventRegistry, 'trade.offer.created', offer));
    expect(await h.list(bram)).toHaveLength(1);
    expect(await unread(bram)).toBe(1);
    await waitFor(async () => (await h.mails(emailOf(bram.id))).length === 1, 'one mail');
    const deadline = performance.now() + 300;
    await waitFor(() => performance.now() > deadline, 'a moment for a second mail');
    expect(await h.mails(emailOf(bram.id))).toHaveLength(1);
  });

  it('tells each step of an offer to the other party, and a review to the reviewee', async () => {
    const [anna, bram] = await Promise.all([member('Anna'), member('Bram')]);
    const base = offerEvent({ senderId: anna.id, receiverId: bram.id });
    const step = (version: number, over: Partial<typeof base>) => ({ ...base, version, at: iso(), ...over });
    await h.publish('trade.offer.accepted', step(2, { status: 'Accepted' }));
    await h.publish('trade.offer.confirmed', step(3, { status: 'Accepted', receiverConfirmed: true }));
    await h.publish('trade.offer.completed', step(4, { status: 'Completed', receiverConfirmed: true, senderConfirmed: true }));
    await h.publish('trade.review.added', { id: oid(), version: 1, offerId: base.id, reviewerId: anna.id, revieweeId: bram.id, rating: 4, at: iso() });
    const other = offerEvent({ senderId: anna.id, receiverId: bram.id });
    await h.publish('trade.offer.rejected', { ...other, version: 2, status: 'Rejected' });
    const third = offerEvent({ senderId: bram.id, receiverId: anna.id });
    await h.publish('trade.offer.cancelled', { ...third, version: 2, status: 'Cancelled' });

    const forAnna = await h.until(anna, 5);
    expect(forAnna.map((n) => [n.kind, n.title]).sort()).toEqual(
      [
        ['offer-accepted', 'Bram heeft je ruilaanbod geaccepteerd'],
        ['offer-confirmed', 'Bram heeft de ruil bevestigd'],
        ['trade-completed', 'Je ruil met Bram is afgerond'],
        ['offer-rejected', 'Bram heeft je ruilaanbod afgewezen'],
        ['offer-withdrawn', 'Bram heeft het ruilaanbod ingetrokken'],
      ].sort(),
    );
    const forBram = await h.until(bram, 2);
    expect(forBram.map((n) => [n.kind, n.title]).sort()).toEqual(
      [
        ['review-received', 'Anna heeft je een beoordeling gegeven'],
        ['trade-completed', 'Je ruil met Anna is afgerond'],
      ].sort(),
    );
  });
});

describe('moderation, payment and listing', () => {
  it('tells a warning with its text, a suspension with reason and end, and the reporter their report was handled', async () => {
    const [eva, fleur] = await Promise.all([member('Eva'), member('Fleur')]);
    await h.publish('moderation.user.warned', { userId: eva.id, version: 1, warningId: oid(), recentWarnings: 1, reason: 'Houd het vriendelijk in de chat.', at: iso() });
    await h.publish('moderation.user.suspended', { userId: eva.id, version: 2, reason: 'ban', endsAt: '2030-01-02T10:00:00.000Z', at: iso() });
    await h.publish('moderation.report.resolved', { reportId: oid(), reporterId: fleur.id, status: 'Afgehandeld', version: 1, at: iso() });
    const forEva = await h.until(eva, 2);
    expect(forEva.find((n) => n.kind === 'warning')).toMatchObject({ title: 'Je hebt een waarschuwing gekregen', body: 'Houd het vriendelijk in de chat.' });
    expect(forEva.find((n) => n.kind === 'suspension')).toMatchObject({ title: 'Je account is geblokkeerd', link: '/geblokkeerd' });
    expect(forEva.find((n) => n.kind === 'suspension').body).toContain('2 januari 2030');
    expect((await h.until(fleur, 1))[0]).toMatchObject({ kind: 'report-handled', title: 'Je melding is afgehandeld' });
    // Lifted by an admin (issue 27): told, with what stays offline; a redelivery adds nothing.
    const lifted = { userId: eva.id, version: 3, cause: 'lifted' as const, at: iso() };
    await h.publish('moderation.user.suspension-ended', lifted);
    await h.publish('moderation.user.suspension-ended', lifted);
    const ended = (await h.until(eva, 3)).filter((n) => n.kind === 'suspension-ended');
    expect(ended).toEqual([expect.objectContaining({ title: 'De blokkade van je account is opgeheven', link: '/dashboard/my-listings' })]);
    expect(ended[0].body).toContain('Je listings staan nog offline');
    // Warnings are mailed at once, with their text.
    await waitFor(async () => (await h.mails(emailOf(eva.id))).some((m) => m.text.includes('Houd het vriendelijk in de chat.')), 'the warning by mail');
  });

  it('tells Premium active, renewal failed, ending in 3 days (once) and ended', async () => {
    const gijs = await member('Gijs');
    const inTwoDays = new Date(nowMs() + 2 * 86_400_000).toISOString();
    await h.publish('payment.subscription.activated', { userId: gijs.id, version: 1, paidUntil: new Date(nowMs() + 30 * 86_400_000).toISOString(), at: iso() });
    await h.publish('payment.subscription.renewal-failed', { userId: gijs.id, version: 2, paidUntil: inTwoDays, at: iso() });
    await h.until(gijs, 2);
    await waitFor(async () => !!(await h.service.ctx.endings.findOne({ _id: gijs.id, version: 2 })), 'the ending recorded');
    expect(await h.service.endings.run()).toBeGreaterThanOrEqual(1);
    expect(await h.service.endings.run()).toBe(0);
    await h.publish('payment.subscription.expired', { userId: gijs.id, version: 3, paidUntil: null, at: iso() });
    const all = await h.until(gijs, 4);
    expect(all.map((n) => n.kind).sort()).toEqual(['premium-active', 'premium-ended', 'premium-ending', 'premium-renewal-failed']);
    expect(all.find((n) => n.kind === 'premium-ending').title).toBe('Je Premium loopt over 3 dagen af');
  });

  it('tells the wishers of a listing that was traded or removed', async () => {
    const [hans, ilse] = await Promise.all([member('Hans'), member('Ilse')]);
    await h.publish('listing.wishlist.ended', { listingId: oid(), title: 'Stadsfiets', reason: 'traded', userIds: [hans.id, ilse.id], version: 3, at: iso() });
    await h.publish('listing.wishlist.ended', { listingId: oid(), title: 'Lamp', reason: 'removed', userIds: [ilse.id], version: 2, at: iso() });
    expect((await h.until(hans, 1))[0]).toMatchObject({ kind: 'wishlist-traded', body: '"Stadsfiets" is geruild en niet meer te krijgen.' });
    expect((await h.until(ilse, 2)).map((n) => n.kind).sort()).toEqual(['wishlist-removed', 'wishlist-traded']);
  });
});

describe('chat', () => {
  it('keeps one unread notification per conversation, mails it once per 15 minutes, and skips a recipient who saw it live', async () => {
    const [jan, kim] = await Promise.all([member('Jan'), member('Kim')]);
    const offerId = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    const message = (messageId: number, recipientOnline = false) => ({ messageId, version: 1, offerId, senderId: jan.id, recipientIds: [kim.id], preview: `bericht ${messageId}`, sentAt: iso(), recipientOnline });
    await handledBy(h, 'notification-chat', createEvent(eventRegistry, 'chat.message.sent', message(1)));
    await handledBy(h, 'notification-chat', createEvent(eventRegistry, 'chat.message.sent', message(2)));
    await handledBy(h, 'notification-chat', createEvent(eventRegistry, 'chat.message.sent', message(1))); // late copy: nothing
    const list = await h.list(kim);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ kind: 'chat-message', title: '2 nieuwe berichten van Jan', body: 'bericht 2', link: `/dashboard/tradeoffer/${offerId}` });
    expect(await unread(kim)).toBe(1);
    await waitFor(async () => (await h.mails(emailOf(kim.id))).length === 1, 'one chat mail');
    await handledBy(h, 'notification-chat', createEvent(eventRegistry, 'chat.message.sent', message(3, true)));
    expect((await h.list(kim))[0].body).toBe('bericht 2');
    expect(await h.mails(emailOf(kim.id))).toHaveLength(1);
  });
});

describe('blocks', () => {
  it('lets nothing from a member reach one who blocked them, or whom they blocked, and takes back what is unread', async () => {
    const [lars, mila] = await Promise.all([member('Lars'), member('Mila')]);
    // An unread one from before the block goes with it (trade's cancellations on the same block may come first).
    await h.publish('trade.offer.created', offerEvent({ senderId: lars.id, receiverId: mila.id }));
    await h.until(mila, 1);
    await handledBy(h, 'notification-members', createEvent(eventRegistry, 'auth.block.added', { blockerId: mila.id, blockedId: lars.id, version: 1, at: iso() }));
    expect(await h.list(mila)).toEqual([]);
    expect(await unread(mila)).toBe(0);
    await handledBy(h, 'notification-trade', createEvent(eventRegistry, 'trade.offer.created', offerEvent({ senderId: lars.id, receiverId: mila.id })));
    await handledBy(h, 'notification-trade', createEvent(eventRegistry, 'trade.offer.created', offerEvent({ senderId: mila.id, receiverId: lars.id })));
    expect(await h.list(mila)).toEqual([]);
    expect(await h.list(lars)).toEqual([]);
    await handledBy(h, 'notification-members', createEvent(eventRegistry, 'auth.block.removed', { blockerId: mila.id, blockedId: lars.id, version: 2, at: iso() }));
    await h.publish('trade.offer.created', offerEvent({ senderId: lars.id, receiverId: mila.id }));
    expect((await h.until(mila, 1))[0].title).toBe('Nieuw ruilaanbod van Lars');
  });
});

describe('the inbox', () => {
  it('lists newest first in pages, marks one or all read, and keeps others out', async () => {
    const [nina, otto] = await Promise.all([member('Nina'), member('Otto')]);
    for (let i = 0; i < 5; i++) {
      await h.publish('trade.offer.created', { ...offerEvent({ senderId: otto.id, receiverId: nina.id }), at: new Date(nowMs() - (5 - i) * 60_000).toISOString() });
    }
    const all = await h.until(nina, 5);
    expect(all.map((n) => n.createdAt)).toEqual([...all.map((n) => n.createdAt)].sort().reverse());
    const first = await h.list(nina, '?take=2');
    const next = await h.list(nina, `?take=2&before=${encodeURIComponent(first[1].id)}`);
    expect([...first, ...next].map((n) => n.id)).toEqual(all.slice(0, 4).map((n) => n.id));

    expect((await send(h.url, `/api/notification/${encodeURIComponent(all[0].id)}/read`, { method: 'POST', token: otto.token })).status).toBe(404);
    expect((await send(h.url, `/api/notification/${encodeURIComponent(all[0].id)}/read`, { method: 'POST', token: nina.token })).status).toBe(204);
    expect(await unread(nina)).toBe(4);
    expect((await h.list(nina))[0].readAt).not.toBeNull();
    expect((await send(h.url, '/api/notification/read-all', { method: 'POST', token: nina.token })).status).toBe(204);
    expect(await unread(nina)).toBe(0);
    expect((await h.list(nina)).every((n) => n.readAt)).toBe(true);
  });

  it('refuses bad input with 400 in Dutch', async () => {
    const nina = await member('Nina');
    expect((await send(h.url, '/api/notification?take=51', { token: nina.token })).body.message).toBe(NOTIFICATION_MESSAGES.invalidTake);
    expect((await send(h.url, '/api/notification?before=x', { token: nina.token })).status).toBe(400);
    expect((await send(h.url, '/api/notification/niet-een-id/read', { method: 'POST', token: nina.token })).body.message).toBe(NOTIFICATION_MESSAGES.invalidId);
    expect((await send(h.url, '/api/notification')).status).toBe(401);
  });
});

describe('preferences and unsubscribe', () => {
  it('answers the defaults, takes a partial change, and refuses unknown kinds and values', async () => {
    const pia = await member('Pia');
    const path = '/api/notification/preferences';
    expect((await send(h.url, path, { token: pia.token })).body).toEqual(DEFAULT_MAIL_PREFERENCES);
    const changed = await send(h.url, path, { method: 'PUT', token: pia.token, json: { 'offer-received': 'digest', warning: 'off' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...DEFAULT_MAIL_PREFERENCES, 'offer-received': 'digest', warning: 'off' });
    const unknown = await send(h.url, path, { method: 'PUT', token: pia.token, json: { 'geen-soort': 'off' } });
    expect(unknown).toMatchObject({ status: 400, body: { message: NOTIFICATION_MESSAGES.unknownKind } });
    expect(await send(h.url, path, { method: 'PUT', token: pia.token, json: {} })).toMatchObject({ status: 400, body: { message: NOTIFICATION_MESSAGES.noPreferences } });
    expect((await send(h.url, path, { method: 'PUT', token: pia.token })).status).toBe(400);
    const value = await send(h.url, path, { method: 'PUT', token: pia.token, json: { warning: 'soms' } });
    expect(value).toMatchObject({ status: 400, body: { message: NOTIFICATION_MESSAGES.invalidPreference } });
    expect((await send(h.url, path, { token: pia.token })).body.warning).toBe('off');
  });

  it("turns a kind off from the mail's one-click link without a login; a tampered token is a 400", async () => {
    const [rik, sam] = await Promise.all([member('Rik'), member('Sam')]);
    await h.publish('trade.offer.created', offerEvent({ senderId: sam.id, receiverId: rik.id }));
    await waitFor(async () => (await h.mails(emailOf(rik.id))).length === 1, 'the mail');
    const link = /^<(.+)>$/.exec((await h.mails(emailOf(rik.id)))[0]!.headers['List-Unsubscribe']!)![1]!;
    const path = new URL(link).pathname + new URL(link).search;
    const page = await send(h.url, path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('<form method="post"');
    const token = new URL(link).searchParams.get('token')!;
    const tampered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}A`;
    const refused = await send(h.url, `/api/notification/unsubscribe?token=${encodeURIComponent(tampered)}`, { method: 'POST' });
    expect(refused).toMatchObject({ status: 400, body: { message: NOTIFICATION_MESSAGES.invalidToken } });
    const done = await send(h.url, path, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect((await send(h.url, '/api/notification/preferences', { token: rik.token })).body['offer-received']).toBe('off');
    await handledBy(h, 'notification-trade', createEvent(eventRegistry, 'trade.offer.created', offerEvent({ senderId: sam.id, receiverId: rik.id })));
    expect(await h.list(rik)).toHaveLength(2); // still in the app
    expect(await h.mails(emailOf(rik.id))).toHaveLength(1);
  });
});

describe('account deletion', () => {
  it("removes the member's notifications and preferences", async () => {
    const [tom, uma] = await Promise.all([member('Tom'), member('Uma')]);
    await h.publish('trade.offer.created', offerEvent({ senderId: uma.id, receiverId: tom.id }));
    await h.until(tom, 1);
    await send(h.url, '/api/notification/preferences', { method: 'PUT', token: tom.token, json: { warning: 'off' } });
    const ids = (await h.list(tom)).map((n) => n.id);
    await tom.remove();
    await waitFor(async () => !(await h.service.ctx.inboxes.findOne({ _id: tom.id })), 'the inbox gone');
    expect(await h.service.ctx.notifications.countDocuments({ _id: { $in: ids } })).toBe(0);
    expect(await h.service.ctx.preferences.findOne({ _id: tom.id })).toBeNull();
    // A late event about the gone member makes nothing.
    await handledBy(h, 'notification-trade', createEvent(eventRegistry, 'trade.offer.created', offerEvent({ senderId: uma.id, receiverId: tom.id })));
    expect(await h.service.ctx.inboxes.findOne({ _id: tom.id })).toBeNull();
  });
});

describe('over time (the clock moved)', () => {
  it('sends one digest per member at 08:00 Dutch time listing their digest notifications, without kinds turned off since', async () => {
    const [vera, wim, xander, quinn] = await Promise.all([member('Vera'), member('Wim'), member('Xander'), member('Quinn')]);
    const rejected = (to: TestMember) => ({ ...offerEvent({ senderId: xander.id, receiverId: to.id }), version: 2, status: 'Rejected' as const });
    // offer-rejected goes in the digest by default: Vera's two and Wim's one.
    await h.publish('trade.offer.rejected', { ...rejected(vera), senderId: vera.id, receiverId: xander.id });
    await h.publish('trade.offer.rejected', { ...rejected(vera), senderId: vera.id, receiverId: xander.id });
    await h.publish('trade.offer.rejected', { ...rejected(wim), senderId: wim.id, receiverId: xander.id });
    await h.publish('trade.offer.rejected', { ...rejected(quinn), senderId: quinn.id, receiverId: xander.id });
    await h.until(vera, 2);
    await h.until(wim, 1);
    await h.until(quinn, 1);
    // Turned off after it was queued: left out of the digest.
    await send(h.url, '/api/notification/preferences', { method: 'PUT', token: quinn.token, json: { 'offer-rejected': 'off' } });
    expect(await h.mails(emailOf(vera.id))).toEqual([]);

    // Not yet before 08:00: the next 08:00 Dutch time, and half a minute.
    let at = Math.ceil(nowMs() / 3_600_000) * 3_600_000;
    while (dutchDayAndHour(new Date(at)).hour !== 8) at += 3_600_000;
    const clock = await testClock();
    await clock.move(at - 3_600_000 - wallClockMs());
    expect(await h.service.digest.run()).toBeUndefined();
    await clock.move(at + 30_000 - wallClockMs());
    const result = await h.service.digest.run();
    // The earlier tests' digest notifications go out too.
    expect(result!.mails).toBeGreaterThanOrEqual(2);
    await waitFor(async () => (await h.mails(emailOf(vera.id))).length === 1 && (await h.mails(emailOf(wim.id))).length === 1, 'the digests');
    expect(await h.mails(emailOf(quinn.id))).toEqual([]);
    const [digest] = await h.mails(emailOf(vera.id));
    expect(digest!.subject).toBe('Je dagelijkse overzicht: 2 meldingen');
    expect(digest!.text.match(/Vera heeft je ruilaanbod afgewezen|Xander heeft je ruilaanbod afgewezen/g)).toHaveLength(2);
    expect(digest!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // Once a day: a second round sends nothing more.
    expect(await h.service.digest.run()).toBeUndefined();
    expect(await h.mails(emailOf(vera.id))).toHaveLength(1);
  });

  it('deletes read notifications 90 days after they were read, and keeps unread ones', async () => {
    const [yara, zoe] = await Promise.all([member('Yara'), member('Zoë')]);
    await h.publish('trade.offer.created', offerEvent({ senderId: zoe.id, receiverId: yara.id }));
    await h.publish('trade.offer.created', offerEvent({ senderId: zoe.id, receiverId: yara.id }));
    const [first, second] = await h.until(yara, 2);
    expect((await send(h.url, `/api/notification/${encodeURIComponent(first.id)}/read`, { method: 'POST', token: yara.token })).status).toBe(204);
    const clock = await testClock();
    await clock.move(nowMs() - wallClockMs() + 89 * 86_400_000);
    await h.service.expiry.run();
    expect(await h.list(yara)).toHaveLength(2);
    await clock.move(nowMs() - wallClockMs() + 2 * 86_400_000);
    const result = await h.service.expiry.run();
    expect(result.notifications).toBeGreaterThanOrEqual(1);
    expect((await h.list(yara)).map((n) => n.id)).toEqual([second.id]);
    expect((await h.service.ctx.inboxes.findOne({ _id: yara.id }))!.ids).toEqual([second.id]);
  });
});
