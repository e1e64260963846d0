// A saved search's filters (POST /api/search/saved, issue 23) from and to the search page's, its
// name as first offered, and how it reads in the list. Plain functions: unit-tested.
import { SAVED_SEARCH_NAME_MAX_LENGTH, type SavedSearch } from '@ruilplein/contracts/browser';
import { formatWholeEuro } from '../common/format.ts';
import { SEARCH_DEFAULTS, VALUE_MAX, VALUE_MIN, type SearchFilters } from '../search/filters.ts';

export type SavedFilters = SavedSearch['filters'];

/** What the search page shows, as a saved search keeps it: only what narrows the search (a distance always). */
export function savedFiltersOf(f: SearchFilters): SavedFilters {
  const q = f.q.trim();
  return {
    ...(q && { q }),
    distanceKm: f.distanceKm,
    ...(f.minValue > VALUE_MIN && { minValue: f.minValue }),
    ...(f.maxValue < VALUE_MAX && { maxValue: f.maxValue }),
    ...(f.kind !== 'all' && { listingType: f.kind }),
    ...(f.premium && { premium: true }),
    ...(f.categoryIds.length > 0 && { categoryIds: f.categoryIds }),
  };
}

/** The search page's filters of a saved search: what is absent is the page's default, an absent maximum the slider's end. */
export function searchFiltersOf(saved: SavedFilters): SearchFilters {
  return {
    q: saved.q ?? '',
    distanceKm: saved.distanceKm ?? SEARCH_DEFAULTS.distanceKm,
    minValue: saved.minValue ?? VALUE_MIN,
    maxValue: saved.maxValue ?? VALUE_MAX,
    kind: saved.listingType ?? 'all',
    premium: saved.premium ?? false,
    categoryIds: saved.categoryIds ?? [],
  };
}

/** The name the save form offers: the search words, else the categories' names, else a plain one. */
export function suggestedName(f: SearchFilters, categoryNames: ReadonlyMap<string, string> = new Map()): string {
  const words = f.q.trim().replace(/\s+/g, ' ');
  const categories = f.categoryIds.flatMap((id) => categoryNames.get(id) ?? []).join(', ');
  return (words || categories || 'Mijn zoekopdracht').slice(0, SAVED_SEARCH_NAME_MAX_LENGTH);
}

/** A saved search's filters in a line: '"fiets" · binnen 10 km · € 0 – € 100 · items · Fietsen'. */
export function describeFilters(saved: SavedFilters, categoryNames: ReadonlyMap<string, string> = new Map()): string {
  const parts: string[] = [];
  if (saved.q) parts.push(`"${saved.q}"`);
  parts.push(`binnen ${saved.distanceKm ?? SEARCH_DEFAULTS.distanceKm} km`);
  if (saved.minValue !== undefined || saved.maxValue !== undefined) {
    const min = formatWholeEuro(saved.minValue ?? VALUE_MIN);
    parts.push(saved.maxValue === undefined ? `vanaf ${min}` : `${min} – ${formatWholeEuro(saved.maxValue)}`);
  }
  if (saved.listingType) parts.push(saved.listingType === 'item' ? 'items' : 'diensten');
  if (saved.premium) parts.push('alleen premium');
  const categories = (saved.categoryIds ?? []).map((id) => categoryNames.get(id) ?? 'onbekende categorie');
  if (categories.length > 0) parts.push(categories.join(', '));
  return parts.join(' · ');
}

/** '3 nieuw sinds je laatste bezoek', or nothing new. */
export function newSinceVisit(count: number): string {
  return count > 0 ? `${count} nieuw sinds je laatste bezoek` : 'Niets nieuws sinds je laatste bezoek';
}
