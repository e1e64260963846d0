import { describe, expect, it } from 'vitest';
import { hasAdminRole, hasPremiumMembershipAt, isPremiumAt, type MembershipState } from '../src/membership.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const member = (over: Partial<MembershipState> = {}): MembershipState => ({ roles: ['Gebruiker'], ...over });

describe('membership rules', () => {
  it('a standard member has no rights; nobody (unknown) neither', () => {
    expect(isPremiumAt(member(), NOW)).toBe(false);
    expect(hasAdminRole(member())).toBe(false);
    expect(isPremiumAt(undefined, NOW)).toBe(false);
    expect(isPremiumAt(null, NOW)).toBe(false);
  });

  it('the role Premium is Premium at any time', () => {
    expect(isPremiumAt(member({ roles: ['Gebruiker', 'Premium'] }), NOW)).toBe(true);
    expect(hasPremiumMembershipAt(member({ roles: ['Premium'] }), 0)).toBe(true);
  });

  it('a paid period is Premium until its end, not at it (Date, ISO text and epoch milliseconds alike)', () => {
    const end = new Date(NOW.getTime() + 1000);
    for (const subscriptionEndsAt of [end, end.toISOString()]) {
      const paid = member({ subscriptionEndsAt });
      expect(isPremiumAt(paid, NOW)).toBe(true);
      expect(isPremiumAt(paid, NOW.getTime() + 999)).toBe(true);
      expect(isPremiumAt(paid, end)).toBe(false);
      expect(isPremiumAt(paid, NOW.getTime() + 5000)).toBe(false);
    }
    expect(isPremiumAt(member({ subscriptionEndsAt: null }), NOW)).toBe(false);
    expect(isPremiumAt(member({ subscriptionEndsAt: 'not a date' }), NOW)).toBe(false);
  });

  it('admins have Premium rights without a Premium membership', () => {
    for (const role of ['Moderator', 'Beheerder'] as const) {
      const admin = member({ roles: [role] });
      expect(hasAdminRole(admin)).toBe(true);
      expect(isPremiumAt(admin, NOW)).toBe(true);
      expect(hasPremiumMembershipAt(admin, NOW)).toBe(false);
    }
  });

  it('a deleted member (a tombstone) has no rights whatever it still holds', () => {
    const gone = member({ roles: ['Premium', 'Beheerder'], subscriptionEndsAt: new Date(NOW.getTime() + 3600_000), deleted: true });
    expect(isPremiumAt(gone, NOW)).toBe(false);
    expect(hasAdminRole(gone)).toBe(false);
    expect(hasPremiumMembershipAt(gone, NOW)).toBe(false);
  });
});
