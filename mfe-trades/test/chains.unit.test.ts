import { describe, expect, it } from 'vitest';
import { otherMembers as othersOf, ringLine } from '@ruilplein/contracts/browser';
import { chainById, proposeQuestion, ringSentences, type ChainSuggestion } from '../src/chains/ring.ts';

const [anna, bram, cas] = ['a', 'b', 'c'].map((c) => c.repeat(24)) as [string, string, string];
const member = (userId: string, firstName: string, gives: [string, string], receives: [string, string]) => ({
  userId,
  firstName,
  gives: { listingId: gives[0], title: gives[1] },
  receives: { listingId: receives[0], title: receives[1] },
});
const fiets: [string, string] = ['l-fiets', 'Racefiets'];
const naai: [string, string] = ['l-naai', 'Naaimachine'];
const tent: [string, string] = ['l-tent', 'Tent'];
// Anna gives the bike to Bram, Bram the sewing machine to Cas, Cas the tent to Anna.
const three: ChainSuggestion = {
  id: '0'.repeat(24),
  participants: [member(anna, 'Anna', fiets, tent), member(bram, 'Bram', naai, fiets), member(cas, 'Cas', tent, naai)],
  maxDistanceKm: 12,
};
const two: ChainSuggestion = { id: '1'.repeat(24), participants: [member(anna, 'Anna', fiets, naai), member(bram, 'Bram', naai, fiets)], maxDistanceKm: 3.5 };

describe('a swap chain in words', () => {
  it('says who gives what to whom in ring order, the last giving to the first', () => {
    expect(ringSentences(three)).toEqual(['Anna geeft Racefiets aan Bram', 'Bram geeft Naaimachine aan Cas', 'Cas geeft Tent aan Anna']);
    expect(ringSentences(two)).toEqual(['Anna geeft Racefiets aan Bram', 'Bram geeft Naaimachine aan Anna']);
  });

  it("draws the ring once round from the viewer's place, whoever is first in the answer", () => {
    expect(ringLine(three, anna)).toBe('Jij → Bram → Cas → jij');
    expect(ringLine(three, bram)).toBe('Jij → Cas → Anna → jij');
    expect(ringLine(three, cas)).toBe('Jij → Anna → Bram → jij');
    expect(ringLine(two, bram)).toBe('Jij → Anna → jij');
    // Not in it (cannot happen for the caller's own chains): from the first member.
    expect(ringLine(three, 'x')).toBe('Anna → Bram → Cas → Anna');
  });

  it('names the others and asks before proposing', () => {
    expect(othersOf(three, anna)).toBe('Bram en Cas');
    // In ring order from the viewer: Cas gives to Anna, Anna to Bram.
    expect(othersOf(three, cas)).toBe('Anna en Bram');
    expect(othersOf(three, bram)).toBe('Cas en Anna');
    expect(othersOf(two, anna)).toBe('Bram');
    expect(proposeQuestion(three, anna)).toBe('Je stelt deze ruilketen voor aan Bram en Cas. Zij krijgen een melding en moeten allebei accepteren.');
  });
});

describe('finding a chain', () => {
  it('by its id, or none once it no longer holds', () => {
    expect(chainById([two, three], three.id)).toBe(three);
    expect(chainById([two], three.id)).toBeUndefined();
  });
});
