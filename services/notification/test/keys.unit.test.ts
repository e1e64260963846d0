// The pure parts: the digest day of a moment (Dutch time, both sides of summer time), ids that sort
// by time, and unsubscribe tokens that only the service's key signs.
import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken, unsubscribeToken } from '../src/mail/tokens.ts';
import { digestDayOf, notificationId, ownerOf, shardOf } from '../src/notifications/keys.ts';

const member = '0123456789abcdef01234567';

describe('digestDayOf', () => {
  it("is today's 08:00 Dutch time until then, tomorrow's from then, in winter and in summer", () => {
    expect(digestDayOf(new Date('2026-01-15T06:59:59Z'))).toBe('2026-01-15'); // 07:59:59 CET
    expect(digestDayOf(new Date('2026-01-15T07:00:00Z'))).toBe('2026-01-16'); // 08:00 CET
    expect(digestDayOf(new Date('2026-07-15T05:59:59Z'))).toBe('2026-07-15'); // 07:59:59 CEST
    expect(digestDayOf(new Date('2026-07-15T06:00:00Z'))).toBe('2026-07-16'); // 08:00 CEST
    expect(digestDayOf(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01'); // 00:30 on New Year's Day
  });
});

describe('notification ids', () => {
  it('sort by time as text, name their member, and are the same for the same event', () => {
    const early = notificationId(member.toUpperCase(), new Date('2026-01-01T00:00:00Z'), 'o1v1');
    const late = notificationId(member, new Date('2026-01-01T00:00:01Z'), 'o1v1');
    expect(early < late).toBe(true);
    expect(ownerOf(early)).toBe(member);
    expect(notificationId(member, new Date('2026-01-01T00:00:01Z'), 'o1v1')).toBe(late);
    expect(shardOf(member)).toBe(shardOf(member.toUpperCase()));
    expect(shardOf(member)).toMatch(/^\d{3}$/);
  });
});

describe('unsubscribe tokens', () => {
  const key = 'k'.repeat(32);
  it('read back the member and kind, and refuse another key, a changed payload or a cut-off token', () => {
    const token = unsubscribeToken(key, member, 'chat-message');
    expect(readUnsubscribeToken(key, token)).toEqual({ userId: member, scope: 'chat-message' });
    expect(readUnsubscribeToken(key, unsubscribeToken(key, member, 'digest'))).toEqual({ userId: member, scope: 'digest' });
    expect(readUnsubscribeToken('x'.repeat(32), token)).toBeUndefined();
    const [, signature] = token.split('.');
    const other = Buffer.from(`${member}:warning`).toString('base64url');
    expect(readUnsubscribeToken(key, `${other}.${signature}`)).toBeUndefined();
    expect(readUnsubscribeToken(key, token.slice(0, -3))).toBeUndefined();
    expect(readUnsubscribeToken(key, 'geen.token.hier')).toBeUndefined();
  });
});
