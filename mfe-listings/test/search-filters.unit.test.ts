import { describe, expect, it } from 'vitest';
import { SEARCH_QUERY_MAX_LENGTH } from '@ruilplein/contracts/browser';
import {
  activeSearchFilters,
  readSearchFilters,
  readServiceFilters,
  SEARCH_DEFAULTS,
  searchQuery,
  SERVICE_DEFAULTS,
  serviceQuery,
  writeSearchFilters,
  writeServiceFilters,
} from '../src/search/filters.ts';

const params = (text: string) => new URLSearchParams(text);

describe('the search filters in the address', () => {
  it('a bare address is the defaults: 25 km, value 0 to 100, both kinds, every listing, no category', () => {
    expect(readSearchFilters(params(''))).toEqual({ q: '', distanceKm: 25, minValue: 0, maxValue: 100, kind: 'all', premium: false, categoryIds: [] });
    expect(writeSearchFilters(SEARCH_DEFAULTS).toString()).toBe('');
  });

  it('reads back what it wrote', () => {
    const filters = { q: 'oude fiets', distanceKm: 80, minValue: 20, maxValue: 5000, kind: 'service' as const, premium: true, categoryIds: ['a', 'b'] };
    const written = writeSearchFilters(filters);
    expect(written.toString()).toBe('q=oude+fiets&distance=80&minValue=20&maxValue=5000&type=service&premium=true&categories=a%2Cb');
    expect(readSearchFilters(written)).toEqual(filters);
  });

  it('takes a hand-edited address as the nearest sensible filters', () => {
    expect(readSearchFilters(params('distance=0&minValue=-5&maxValue=99999&type=boat&premium=yes'))).toMatchObject({
      distanceKm: 1,
      minValue: 0,
      maxValue: 5000,
      kind: 'all',
      premium: false,
    });
    expect(readSearchFilters(params('distance=9999&minValue=abc'))).toMatchObject({ distanceKm: 200, minValue: 0 });
    // Off the slider's steps of 10, and crossed.
    expect(readSearchFilters(params('minValue=304&maxValue=46'))).toMatchObject({ minValue: 50, maxValue: 300 });
    expect(readSearchFilters(params('categories=a,,b,a,%20c%20')).categoryIds).toEqual(['a', 'b', 'c']);
  });
});

describe('the search call', () => {
  it('sends the maximum value only below 5000 and the minimum only above 0', () => {
    expect(searchQuery(SEARCH_DEFAULTS)).toEqual({ distanceKm: '25', maxValue: '100' });
    expect(searchQuery({ ...SEARCH_DEFAULTS, minValue: 10, maxValue: 5000 })).toEqual({ distanceKm: '25', minValue: '10' });
  });

  it('sends the kind, the premium filter and the categories as a comma list', () => {
    expect(searchQuery({ ...SEARCH_DEFAULTS, kind: 'item', premium: true, categoryIds: ['x', 'y'] })).toEqual({
      distanceKm: '25',
      maxValue: '100',
      listingType: 'item',
      premium: 'true',
      categoryIds: 'x,y',
    });
  });
});

describe('the search words', () => {
  it('keep a trailing space while typing, and are sent trimmed', () => {
    const typing = readSearchFilters(params('q=fiets+'));
    expect(typing.q).toBe('fiets ');
    expect(writeSearchFilters(typing).get('q')).toBe('fiets ');
    expect(searchQuery(typing)).toMatchObject({ q: 'fiets' });
  });

  it('are left out of the address and the call when blank, and cut at the longest the API takes', () => {
    expect(writeSearchFilters({ ...SEARCH_DEFAULTS, q: '   ' }).toString()).toBe('');
    expect(searchQuery({ ...SEARCH_DEFAULTS, q: '   ' })).not.toHaveProperty('q');
    expect(readSearchFilters(params(`q=${'a'.repeat(SEARCH_QUERY_MAX_LENGTH + 20)}`)).q).toHaveLength(SEARCH_QUERY_MAX_LENGTH);
  });

  it('go along on the services page', () => {
    const filters = readServiceFilters(params('q=bijles&barter=services_only'));
    expect(filters.q).toBe('bijles');
    expect(serviceQuery(filters)).toEqual({ q: 'bijles', distanceKm: '25', listingType: 'service', barterMode: 'services_only' });
  });
});

describe('the services filters', () => {
  it('default to every barter policy and ask for services only', () => {
    expect(readServiceFilters(params(''))).toEqual(SERVICE_DEFAULTS);
    expect(serviceQuery(SERVICE_DEFAULTS)).toEqual({ distanceKm: '25', listingType: 'service', barterMode: 'all' });
  });

  it('keep the barter policy in the address', () => {
    const filters = { ...SERVICE_DEFAULTS, barterMode: 'services_or_items' as const, distanceKm: 10 };
    expect(writeServiceFilters(filters).toString()).toBe('distance=10&barter=services_or_items');
    expect(readServiceFilters(writeServiceFilters(filters))).toEqual(filters);
    expect(readServiceFilters(params('barter=anything')).barterMode).toBe('all');
  });
});

describe("the phone's 'Filters (n)'", () => {
  it('counts the filters that differ from the defaults: the value range and the categories once each, the keywords not', () => {
    expect(activeSearchFilters(SEARCH_DEFAULTS)).toBe(0);
    expect(activeSearchFilters({ ...SEARCH_DEFAULTS, q: 'fiets' })).toBe(0);
    expect(activeSearchFilters({ ...SEARCH_DEFAULTS, distanceKm: 200, kind: 'item', categoryIds: ['a', 'b'] })).toBe(3);
    expect(activeSearchFilters({ ...SEARCH_DEFAULTS, minValue: 40, maxValue: 5000, premium: true })).toBe(2);
  });
});
