import { describe, expect, it } from 'vitest';
import { formatDate, formatDistance } from '../src/format.ts';

describe('formatDate', () => {
  it('writes a long Dutch date', () => {
    expect(formatDate('2025-04-18T10:00:00Z')).toBe('18 april 2025');
    expect(formatDate(new Date(Date.UTC(2026, 0, 1, 12)))).toBe('1 januari 2026');
  });

  it('uses the Dutch calendar day, not the visitor’s or UTC', () => {
    // 23:30 UTC on 31 December is already New Year in Amsterdam.
    expect(formatDate('2025-12-31T23:30:00Z')).toBe('1 januari 2026');
  });

  it("says 'onbekend' without a valid date", () => {
    expect(formatDate(null)).toBe('onbekend');
    expect(formatDate(undefined)).toBe('onbekend');
    expect(formatDate('geen datum')).toBe('onbekend');
  });
});

describe('formatDistance', () => {
  it.each([
    [0, '< 1 km'],
    [0.4, '< 1 km'],
    [0.99, '< 1 km'],
    [1, '1 km'],
    [3.2, '3 km'],
    [3.5, '4 km'],
    [12.49, '12 km'],
    [1234.6, '1.235 km'],
  ])('%s km → %s', (km, text) => {
    expect(formatDistance(km)).toBe(text);
  });
});
