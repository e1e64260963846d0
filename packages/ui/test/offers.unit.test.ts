import { describe, expect, it } from 'vitest';
import { calendarDay } from '../src/offers.ts';

describe('calendarDay (the date of the daily offer count)', () => {
  it('is the Amsterdam calendar day as year-month-day', () => {
    expect(calendarDay(new Date('2025-04-18T10:00:00Z'))).toBe('2025-04-18');
    // 23:30 UTC on 31 December is already New Year in Amsterdam; 22:30 UTC in summer is the next day too.
    expect(calendarDay(new Date('2025-12-31T23:30:00Z'))).toBe('2026-01-01');
    expect(calendarDay(new Date('2025-06-30T22:30:00Z'))).toBe('2025-07-01');
    expect(calendarDay(new Date('2025-06-30T21:30:00Z'))).toBe('2025-06-30');
  });

  it("refuses an invalid date with 'Ongeldige datum'", () => {
    expect(() => calendarDay(new Date('geen datum'))).toThrow('Ongeldige datum');
  });
});
