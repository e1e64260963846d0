// The listing service's side of the search engine (@ruilplein/search, tested in its own package):
// the engine's distances are the detail page's, and stored documents become the states it takes.
import { ListingIndex, MemberTable, SearchEngine, InterestBook } from '@ruilplein/search';
import { describe, expect, it } from 'vitest';
import { distanceInKm } from '../src/listings/visibility.ts';
import type { ListingDoc } from '../src/listings/model.ts';
import { fromDoc } from '../src/search/sync.ts';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const AMSTERDAM = { latitude: 52.3676, longitude: 4.9041 };

function doc(over: Partial<ListingDoc> = {}): ListingDoc {
  return {
    _id: 'l1',
    ownerId: 'owner',
    title: 'Boekenkast',
    description: 'Stevig eikenhout. '.repeat(20),
    listingType: 'item',
    acceptsItems: false,
    isPremium: false,
    initialValue: 40,
    categoryIds: ['meubels'],
    photos: [
      { imageUrl: '/uploads/listings/a.webp', thumbnailUrl: '/uploads/listings/a-t.webp', width: 1600, height: 1200 },
      { imageUrl: '/uploads/listings/b.webp', thumbnailUrl: '/uploads/listings/b-t.webp', width: 1600, height: 1200 },
    ],
    placeholder: 'data:image/webp;base64,AAAA',
    active: true,
    createdAt: new Date(NOW - 48 * 3600_000),
    updatedAt: new Date(NOW - 48 * 3600_000),
    version: 3,
    ...AMSTERDAM,
    ...over,
  };
}

describe('search in the listing service', () => {
  it('answers the distance the detail page shows, to the decimal', () => {
    const members = new MemberTable();
    const index = new ListingIndex(members);
    const engine = new SearchEngine(index, members, new InterestBook());
    // Pairs of places all over the Netherlands and Belgium, a few metres to a few hundred km apart.
    for (let i = 0; i < 300; i++) {
      const me = { latitude: 50.7 + ((i * 0.0137) % 3), longitude: 3.3 + ((i * 0.0291) % 4) };
      const there = { latitude: 50.7 + ((i * i * 0.00071) % 3), longitude: 3.3 + ((i * 0.173) % 4) };
      members.apply({ id: `m${i}`, version: 1, firstName: 'Jan', lastName: 'Jansen', roles: ['Premium'], ...me });
      index.apply(fromDoc(doc({ _id: `l${i}`, ownerId: `o${i}`, categoryIds: [`c${i}`], ...there })), NOW);
      const [card] = engine.cards(engine.search(engine.searcher(`m${i}`, NOW), { page: 1, take: 1, premium: false, categoryIds: [`c${i}`], distanceKm: 500 }, NOW), new Map());
      expect(card?.distanceInKm).toBe(distanceInKm(me, there));
    }
  });

  it('takes a stored listing as its state: cover photo, a 200-character excerpt, gone when inactive or deleted', () => {
    const state = fromDoc(doc());
    expect(state).toMatchObject({ id: 'l1', version: 3, ownerId: 'owner', active: true, imageUrl: '/uploads/listings/a.webp', thumbnailUrl: '/uploads/listings/a-t.webp', initialValue: 40 });
    expect(state.excerpt).toBe(doc().description.slice(0, 200));
    expect(fromDoc(doc({ active: false })).active).toBe(false);
    expect(fromDoc(doc({ deletedAt: new Date(NOW) })).active).toBe(false);
    expect(fromDoc(doc({ photos: [], initialValue: undefined }))).toMatchObject({ imageUrl: '', thumbnailUrl: '', initialValue: null });
  });
});
