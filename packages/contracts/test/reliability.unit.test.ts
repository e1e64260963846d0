// The reliability score's rules (issue 24): the score from a member's facts at a moment (an open
// offer turns late by the clock alone), and the line members read on profiles and cards.
import { describe, expect, it } from 'vitest';
import { reliabilityLine, reliabilityOf, type ReliabilityFacts } from '../src/index.ts';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const HOUR = 3600_000;
const facts = (over: Partial<ReliabilityFacts> = {}): ReliabilityFacts => ({ answeredInTime: 0, answeredLate: 0, endedUnanswered: 0, openSince: [], responseMinutes: [], completed: 0, cancelledBySelf: 0, trades: 0, sample: 0, ...over });

describe('reliabilityOf', () => {
  it('answers no rates for a member without facts', () => {
    expect(reliabilityOf(undefined, NOW)).toEqual({ responseRate: null, medianResponseMinutes: null, completionRate: null, completedTrades: 0, sample: 0 });
  });

  it('counts an open offer as unanswered once its 48 hours are up, and takes the median of the answers', () => {
    const f = facts({ answeredInTime: 2, answeredLate: 1, openSince: [new Date(NOW - 47 * HOUR).toISOString(), new Date(NOW - 48 * HOUR).toISOString()], responseMinutes: [10, 3000, 50], completed: 1, cancelledBySelf: 1, trades: 1, sample: 4 });
    expect(reliabilityOf(f, NOW)).toEqual({ responseRate: 0.5, medianResponseMinutes: 50, completionRate: 0.5, completedTrades: 1, sample: 5 });
    expect(reliabilityOf(f, NOW + HOUR)).toMatchObject({ responseRate: 0.4, sample: 6 });
    expect(reliabilityOf(facts({ responseMinutes: [10, 20, 31, 40], answeredInTime: 4, sample: 4 }), NOW).medianResponseMinutes).toBe(26);
  });
});

describe('reliabilityLine', () => {
  const score = (over: Partial<ReturnType<typeof reliabilityOf>>) => ({ responseRate: 1, medianResponseMinutes: 170, completionRate: 0.95, completedTrades: 20, sample: 25, ...over });
  it('reads as on a profile: answer time, share completed and trades', () => {
    expect(reliabilityLine(score({}))).toBe('Reageert meestal binnen 3 uur · 95% afgerond (20 ruilen)');
    expect(reliabilityLine(score({ medianResponseMinutes: 12, completedTrades: 1, completionRate: 1 }))).toBe('Reageert meestal binnen een kwartier · 100% afgerond (1 ruil)');
    expect(reliabilityLine(score({ medianResponseMinutes: 41 }))).toContain('binnen 50 minuten');
    expect(reliabilityLine(score({ medianResponseMinutes: 60 }))).toContain('binnen een uur');
    expect(reliabilityLine(score({ medianResponseMinutes: 30 * 60 }))).toContain('binnen 2 dagen');
    expect(reliabilityLine(score({ medianResponseMinutes: null, completionRate: null, completedTrades: 0 }))).toBe('0 ruilen');
  });

  it("says 'Nieuw lid' below three offers", () => {
    expect(reliabilityLine(score({ sample: 2 }))).toBe('Nieuw lid');
  });
});
