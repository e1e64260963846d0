// /dashboard/search, 'Zoeken' (spec 2 §2): listings around the member's place, by keyword (issue 23)
// and filtered by distance, value, kind, premium and categories; the filters live in the address.
// The search on screen can be saved with an alert.
import { useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import { buttonClass, Page, SearchBox } from '@ruilplein/ui';
import { SaveSearch } from '../saved/SaveSearch.tsx';
import { CategoryFilter, Choice, DistanceSlider, FilterPanel, PremiumSelect, ValueRange } from './Filters.tsx';
import { activeSearchFilters, readSearchFilters, searchQuery, writeSearchFilters, type Kind } from './filters.ts';
import { PlaceMap, useOwnPlace } from './OwnPlace.tsx';
import { ResultCount, Results, type ResultWords } from './Results.tsx';
import { useUrlFilters } from './useUrlFilters.ts';
import * as styles from './SearchPage.module.css';

const kinds: { value: Kind; label: string }[] = [
  { value: 'all', label: 'Beide' },
  { value: 'item', label: 'Items' },
  { value: 'service', label: 'Diensten' },
];

const words: ResultWords = {
  empty: 'Geen listings gevonden.',
  own: 'Jouw listing!',
  failed: 'Fout bij ophalen listings',
  count: (n) => (n === 1 ? '1 listing' : `${n} listings`),
};

export function SearchPage() {
  const { committed, draft, change } = useUrlFilters(readSearchFilters, writeSearchFilters);
  const place = useOwnPlace();
  // Phones only (the CSS hides the bar on wider screens, where the filters stand beside the results).
  const [filtersOpen, setFiltersOpen] = useState(false);
  const active = activeSearchFilters(draft);
  const query = searchQuery(committed);
  return (
    <Page title="Zoeken">
      <div className={styles.searchBar}>
        {/* Typing searches once it rests (as the sliders do); Enter or a suggestion at once. */}
        <SearchBox label="Zoeken op trefwoord" value={draft.q} onChange={(q) => change({ q }, { settle: true })} onSearch={(q) => change({ q })} />
        <SaveSearch filters={draft} />
      </div>
      {/* On a phone the filters wait behind a button, so the results start on the first screen. */}
      <div className={styles.phoneBar}>
        <button
          type="button"
          className={buttonClass('secondary')}
          aria-expanded={filtersOpen}
          aria-controls="search-filters-panel"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          <SlidersHorizontal aria-hidden="true" size={18} />
          {active > 0 ? `Filters (${active})` : 'Filters'}
        </button>
        <ResultCount query={query} words={words} />
      </div>
      <div className={styles.layout}>
        <aside id="search-filters-panel" className={filtersOpen ? styles.side : `${styles.side} ${styles.closedOnPhone}`} aria-labelledby="search-filters">
          <h2 id="search-filters" className={styles.heading}>
            Filters
          </h2>
          <PlaceMap place={place} radiusKm={draft.distanceKm} />
          <FilterPanel label="Listings filteren">
            <DistanceSlider value={draft.distanceKm} onChange={(distanceKm) => change({ distanceKm }, { settle: true })} />
            <ValueRange min={draft.minValue} max={draft.maxValue} onChange={(range) => change(range, { settle: true })} />
            <Choice legend="Soort" name="kind" value={draft.kind} options={kinds} onChange={(kind) => change({ kind })} />
            <PremiumSelect value={draft.premium} all="Alle listings" onChange={(premium) => change({ premium })} />
            <CategoryFilter selected={draft.categoryIds} onChange={(categoryIds) => change({ categoryIds })} />
          </FilterPanel>
        </aside>
        <section className={styles.results} aria-labelledby="search-results">
          <h2 id="search-results" className={styles.heading}>
            Resultaten
          </h2>
          <Results query={query} words={words} />
        </section>
      </div>
    </Page>
  );
}
