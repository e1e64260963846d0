import { describe, expect, it } from 'vitest';
import { activeSuspension, isSuspendedBody, SUSPENDED_MESSAGE } from '../src/auth/suspensions.ts';
import { suspensionClaimOf, TokenClaimsSchema } from '../src/auth/tokens.ts';
import { legacySuspensionEvents, moderationEvents, suspensionChangeOf, SUSPENSION_SUBJECTS } from '../src/moderation/events.ts';
import { eventRegistry } from '../src/registry.ts';

describe('activeSuspension', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  it('is the 403 body while the suspension lasts, with the end as an ISO date (the seed fields)', () => {
    expect(activeSuspension({ r: 'ban', u: now / 1000 + 60 }, now)).toEqual({
      message: SUSPENDED_MESSAGE,
      blocked: true,
      reason: 'ban',
      unblockDate: new Date(now + 60_000).toISOString(),
    });
    expect(SUSPENDED_MESSAGE).toBe('Je account is geblokkeerd.');
  });
  it('holds without an end', () => {
    expect(activeSuspension({ r: 'warnings' }, now)).toMatchObject({ reason: 'warnings', unblockDate: null });
  });
  it('is nothing from its end on, or without a claim', () => {
    expect(activeSuspension({ r: 'ban', u: now / 1000 }, now)).toBeUndefined();
    expect(activeSuspension({ r: 'ban', u: now / 1000 - 1 }, now)).toBeUndefined();
    expect(activeSuspension(undefined, now)).toBeUndefined();
  });
});

describe('isSuspendedBody', () => {
  it('tells a suspension from other refusals', () => {
    expect(isSuspendedBody(activeSuspension({ r: 'ban' }, 0))).toBe(true);
    expect(isSuspendedBody({ message: 'Je hebt geen toegang tot deze actie.' })).toBe(false);
    expect(isSuspendedBody({ blocked: true, reason: 'iets' })).toBe(false);
    expect(isSuspendedBody(null)).toBe(false);
  });
});

describe('the token claim', () => {
  const base = { sub: 'u1', roles: ['Gebruiker'], ver: 0 };
  it('is read from `sus`, and from `blk` in tokens issued before the rename', () => {
    expect(suspensionClaimOf(TokenClaimsSchema.parse({ ...base, sus: { r: 'ban', u: 2 } }))).toEqual({ r: 'ban', u: 2 });
    expect(suspensionClaimOf(TokenClaimsSchema.parse({ ...base, blk: { r: 'warnings' } }))).toEqual({ r: 'warnings' });
    expect(suspensionClaimOf(TokenClaimsSchema.parse(base))).toBeUndefined();
  });
  it('refuses a malformed claim under either name', () => {
    expect(TokenClaimsSchema.safeParse({ ...base, sus: { r: 'iets' } }).success).toBe(false);
    expect(TokenClaimsSchema.safeParse({ ...base, blk: { r: 'ban', u: -1 } }).success).toBe(false);
  });
});

describe('suspension events', () => {
  const at = '2026-11-26T10:00:00.000Z';
  const endsAt = '2026-12-03T10:00:00.000Z';
  it('are published under the new names only; the old ones are read, never registered', () => {
    expect(Object.keys(moderationEvents).filter((s) => s.startsWith('moderation.user.')).sort()).toEqual(['moderation.user.suspended', 'moderation.user.suspension-ended', 'moderation.user.warned']);
    for (const old of Object.keys(legacySuspensionEvents)) expect(eventRegistry).not.toHaveProperty([old]);
    expect(SUSPENSION_SUBJECTS).toEqual(expect.arrayContaining(['moderation.user.banned', 'moderation.user.blocked', 'moderation.user.unblocked', 'moderation.user.suspended']));
  });
  it('every version reads as one change: suspended with reason and end, or ended', () => {
    const suspended = moderationEvents['moderation.user.suspended'].parse({ userId: 'u1', version: 2, reason: 'warnings', endsAt, at });
    expect(suspensionChangeOf({ type: 'moderation.user.suspended', payload: suspended })).toEqual({ userId: 'u1', version: 2, suspension: { reason: 'warnings', endsAt } });
    for (const type of ['moderation.user.banned', 'moderation.user.blocked'] as const) {
      const payload = legacySuspensionEvents[type].parse({ userId: 'u1', version: 3, reason: 'ban', unblockDate: null, at });
      expect(suspensionChangeOf({ type, payload })).toEqual({ userId: 'u1', version: 3, suspension: { reason: 'ban', endsAt: null } });
    }
    for (const type of ['moderation.user.suspension-ended', 'moderation.user.unblocked'] as const) {
      expect(suspensionChangeOf({ type, payload: { userId: 'u1', version: 4, at } })).toEqual({ userId: 'u1', version: 4, suspension: null });
    }
  });
});
