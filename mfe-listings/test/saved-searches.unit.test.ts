import { describe, expect, it } from 'vitest';
import { SAVED_SEARCH_MESSAGES, SAVED_SEARCH_NAME_MAX_LENGTH } from '@ruilplein/contracts/browser';
import { demandSentence } from '../src/demand/words.ts';
import { describeFilters, newSinceVisit, savedFiltersOf, searchFiltersOf, suggestedName } from '../src/saved/filters.ts';
import { nameProblem } from '../src/saved/SavedSearchForm.tsx';
import { readSearchFilters, SEARCH_DEFAULTS, writeSearchFilters } from '../src/search/filters.ts';

const categories = new Map([
  ['c1', 'Fietsen'],
  ['c2', 'Boeken'],
]);

describe('a saved search from the search page', () => {
  it('keeps the words trimmed, the distance, and only the filters that narrow the search', () => {
    expect(savedFiltersOf({ ...SEARCH_DEFAULTS, q: '  fietsne ' })).toEqual({ q: 'fietsne', distanceKm: 25, maxValue: 100 });
    expect(savedFiltersOf({ q: '', distanceKm: 10, minValue: 20, maxValue: 5000, kind: 'item', premium: true, categoryIds: ['c1'] })).toEqual({
      distanceKm: 10,
      minValue: 20,
      listingType: 'item',
      premium: true,
      categoryIds: ['c1'],
    });
  });

  it('opens as the same search page it was saved from', () => {
    const shown = readSearchFilters(new URLSearchParams('q=fiets&distance=10&minValue=20&type=service&categories=c1,c2'));
    const reopened = searchFiltersOf(savedFiltersOf(shown));
    expect(reopened).toEqual(shown);
    expect(writeSearchFilters(reopened).toString()).toBe('q=fiets&distance=10&minValue=20&type=service&categories=c1%2Cc2');
    // Saved by another client without a maximum: the slider's end, 'no maximum'.
    expect(searchFiltersOf({ q: 'fiets' })).toMatchObject({ q: 'fiets', distanceKm: 25, minValue: 0, maxValue: 5000, kind: 'all' });
  });

  it('is first named after its words, else its categories, within the longest name', () => {
    expect(suggestedName({ ...SEARCH_DEFAULTS, q: ' oude   fiets ' })).toBe('oude fiets');
    expect(suggestedName({ ...SEARCH_DEFAULTS, categoryIds: ['c1', 'c2'] }, categories)).toBe('Fietsen, Boeken');
    expect(suggestedName(SEARCH_DEFAULTS)).toBe('Mijn zoekopdracht');
    expect(suggestedName({ ...SEARCH_DEFAULTS, q: 'x'.repeat(80) })).toHaveLength(SAVED_SEARCH_NAME_MAX_LENGTH);
  });

  it('refuses a blank or too long name as the service words it', () => {
    expect(nameProblem('  ')).toBe(SAVED_SEARCH_MESSAGES.nameRequired);
    expect(nameProblem('x'.repeat(SAVED_SEARCH_NAME_MAX_LENGTH + 1))).toBe(SAVED_SEARCH_MESSAGES.nameTooLong);
    expect(nameProblem(` ${'x'.repeat(SAVED_SEARCH_NAME_MAX_LENGTH)} `)).toBeUndefined();
  });
});

/** Dutch amounts carry a no-break space after the euro sign. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('the saved searches page', () => {
  it('describes the filters in Dutch', () => {
    expect(plain(describeFilters({ q: 'fiets', distanceKm: 10, maxValue: 100, listingType: 'item', categoryIds: ['c1', 'gone'] }, categories))).toBe(
      '"fiets" · binnen 10 km · € 0 – € 100 · items · Fietsen, onbekende categorie',
    );
    expect(plain(describeFilters({ minValue: 50, premium: true }))).toBe('binnen 25 km · vanaf € 50 · alleen premium');
  });

  it("says what is new since the last visit", () => {
    expect(newSinceVisit(3)).toBe('3 nieuw sinds je laatste bezoek');
    expect(newSinceVisit(0)).toBe('Niets nieuws sinds je laatste bezoek');
  });
});

describe('the demand line', () => {
  it('gives the number of members and the distance', () => {
    expect(demandSentence({ members: 14, few: false }, 10)).toBe('Ongeveer 14 leden binnen 10 km zoeken dit.');
  });

  it('gives no number when there are few', () => {
    const sentence = demandSentence({ members: 0, few: true }, 10);
    expect(sentence).toBe('Binnen 10 km zoeken nog weinig of geen leden dit.');
    expect(sentence.replace('10 km', '')).not.toMatch(/\d/);
  });
});
