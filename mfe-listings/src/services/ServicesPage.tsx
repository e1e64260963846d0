// /dashboard/services, 'Ruil-diensten' (spec 2 §2): services around the member's place, by keyword
// (issue 23), distance, barter policy, premium and categories; the filters live in the address.
// Under the search box, how many members nearby look for such a service (the demand preview).
import type { BarterMode } from '@ruilplein/contracts/browser';
import { Page, SearchBox } from '@ruilplein/ui';
import { DemandLine } from '../demand/DemandLine.tsx';
import { CategoryFilter, DistanceSlider, FilterPanel, PremiumSelect } from '../search/Filters.tsx';
import { readServiceFilters, serviceQuery, writeServiceFilters } from '../search/filters.ts';
import { PlaceHint, useOwnPlace } from '../search/OwnPlace.tsx';
import { Results, type ResultWords } from '../search/Results.tsx';
import { useUrlFilters } from '../search/useUrlFilters.ts';
import * as searchStyles from '../search/SearchPage.module.css';
import * as styles from './ServicesPage.module.css';

const policies: { value: BarterMode; label: string }[] = [
  { value: 'all', label: 'Alle diensten' },
  { value: 'services_only', label: 'Alleen diensten ↔ diensten' },
  { value: 'services_or_items', label: 'Diensten ↔ óók spullen toegestaan' },
];

const words: ResultWords = {
  empty: 'Geen diensten gevonden.',
  own: 'Jouw dienst',
  failed: 'Fout bij ophalen diensten',
  count: (n) => (n === 1 ? '1 dienst' : `${n} diensten`),
};

export function ServicesPage() {
  const { committed, draft, change } = useUrlFilters(readServiceFilters, writeServiceFilters);
  const place = useOwnPlace();
  return (
    <Page title="Ruil-diensten">
      <div className={searchStyles.searchBar}>
        <SearchBox
          label="Diensten zoeken op trefwoord"
          placeholder="Zoek bijvoorbeeld 'bijles'"
          value={draft.q}
          onChange={(q) => change({ q }, { settle: true })}
          onSearch={(q) => change({ q })}
        />
        <DemandLine q={committed.q} categoryIds={committed.categoryIds} distanceKm={committed.distanceKm} />
      </div>
      <div className={styles.policies} role="group" aria-label="Ruilbeleid">
        {policies.map((policy) => (
          <button
            key={policy.value}
            type="button"
            className={styles.policy}
            aria-pressed={draft.barterMode === policy.value}
            onClick={() => change({ barterMode: policy.value })}
          >
            {policy.label}
          </button>
        ))}
      </div>
      <div className={searchStyles.layout}>
        <aside className={searchStyles.side} aria-labelledby="services-filters">
          <h2 id="services-filters" className={searchStyles.heading}>
            Filters
          </h2>
          {place === null && <PlaceHint />}
          <FilterPanel label="Diensten filteren">
            <DistanceSlider value={draft.distanceKm} onChange={(distanceKm) => change({ distanceKm }, { settle: true })} />
            <PremiumSelect value={draft.premium} all="Alle diensten" onChange={(premium) => change({ premium })} />
            <CategoryFilter selected={draft.categoryIds} onChange={(categoryIds) => change({ categoryIds })} />
          </FilterPanel>
        </aside>
        <section className={searchStyles.results} aria-labelledby="services-results">
          <h2 id="services-results" className={searchStyles.heading}>
            Diensten
          </h2>
          <Results query={serviceQuery(committed)} words={words} services />
        </section>
      </div>
    </Page>
  );
}
