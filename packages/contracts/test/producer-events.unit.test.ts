// The producer events the notification service reads (issue 22): the new fields are optional, so
// events already in the streams (from before them) still parse; the new subjects are registered.
import { describe, expect, it } from 'vitest';
import { eventRegistry } from '../src/index.ts';

const at = new Date(0).toISOString();
const parse = (subject: keyof typeof eventRegistry, payload: unknown) => eventRegistry[subject].safeParse(payload);

describe('events for notifications', () => {
  it('moderation.user.warned carries the warning’s text, and reads old events without it', () => {
    const old = { userId: 'u', version: 2, warningId: 'w', recentWarnings: 1, at };
    expect(parse('moderation.user.warned', old)).toMatchObject({ success: true, data: old });
    expect(parse('moderation.user.warned', { ...old, reason: 'Let op je taal.' })).toMatchObject({ success: true, data: { reason: 'Let op je taal.' } });
  });

  it('moderation.report.resolved takes final statuses only', () => {
    const event = { reportId: 'r', reporterId: 'u', status: 'Afgehandeld', version: 1, at };
    expect(parse('moderation.report.resolved', event).success).toBe(true);
    for (const status of ['Gewaarschuwd', 'Geband']) expect(parse('moderation.report.resolved', { ...event, status }).success).toBe(true);
    for (const status of ['Nieuw', 'In behandeling', 'Klaar']) expect(parse('moderation.report.resolved', { ...event, status }).success, status).toBe(false);
  });

  it('payment.subscription.renewal-failed has the subscription events’ payload', () => {
    expect(parse('payment.subscription.renewal-failed', { userId: 'u', version: 3, paidUntil: at, at }).success).toBe(true);
  });

  it('listing.wishlist.ended names the members, traded or removed', () => {
    const event = { listingId: 'l', title: 'Fiets', reason: 'traded', userIds: ['a', 'b'], version: 2, at };
    expect(parse('listing.wishlist.ended', event).success).toBe(true);
    expect(parse('listing.wishlist.ended', { ...event, reason: 'removed' }).success).toBe(true);
    expect(parse('listing.wishlist.ended', { ...event, reason: 'expired' }).success).toBe(false);
    expect(parse('listing.wishlist.ended', { ...event, userIds: [] }).success).toBe(false);
  });

  it('chat.message.sent says whether the recipient saw it live; old events read as not', () => {
    const old = { messageId: 1, version: 1, offerId: 7, senderId: 'a', recipientIds: ['b'], preview: 'Hoi', sentAt: at };
    expect(parse('chat.message.sent', old)).toMatchObject({ success: true, data: { recipientOnline: false } });
    expect(parse('chat.message.sent', { ...old, recipientOnline: true })).toMatchObject({ success: true, data: { recipientOnline: true } });
  });
});
