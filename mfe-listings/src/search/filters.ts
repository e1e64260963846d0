// The filters of the search and services pages as they live in the address (so a reload or a shared
// link keeps them) and as the search call takes them (spec 2 §7, §9). Plain functions: unit-tested.
import { BARTER_MODES, SEARCH_DEFAULT_DISTANCE_KM, SEARCH_QUERY_MAX_LENGTH, type BarterMode } from '@ruilplein/contracts/browser';

/** The distance slider: 1 to 200 km (spec 2 §9). */
export const DISTANCE_MIN_KM = 1;
export const DISTANCE_MAX_KM = 200;
/** The value sliders: 0 to 5000 euro in steps of 10, 0 to 100 at first; 5000 means "no maximum". */
export const VALUE_MIN = 0;
export const VALUE_MAX = 5000;
export const VALUE_STEP = 10;
export const VALUE_DEFAULT_MAX = 100;

export const KINDS = ['all', 'item', 'service'] as const;
export type Kind = (typeof KINDS)[number];

export interface SearchFilters {
  /** The words typed in the search box, as typed (trimmed only when asked: a space while typing stays). */
  q: string;
  distanceKm: number;
  minValue: number;
  maxValue: number;
  kind: Kind;
  /** Only Premium listings. */
  premium: boolean;
  categoryIds: string[];
}

export interface ServiceFilters {
  q: string;
  distanceKm: number;
  barterMode: BarterMode;
  premium: boolean;
  categoryIds: string[];
}

export const SEARCH_DEFAULTS: SearchFilters = {
  q: '',
  distanceKm: SEARCH_DEFAULT_DISTANCE_KM,
  minValue: VALUE_MIN,
  maxValue: VALUE_DEFAULT_MAX,
  kind: 'all',
  premium: false,
  categoryIds: [],
};

export const SERVICE_DEFAULTS: ServiceFilters = { q: '', distanceKm: SEARCH_DEFAULT_DISTANCE_KM, barterMode: 'all', premium: false, categoryIds: [] };

/** A whole number from the address within [min, max] on `step`, else `fallback` (a hand-edited address is no error). */
function numberParam(params: URLSearchParams, name: string, min: number, max: number, fallback: number, step = 1): number {
  const raw = params.get(name);
  if (raw === null || !/^\d+$/.test(raw.trim())) return fallback;
  const n = Math.round(Number(raw) / step) * step;
  return Math.min(max, Math.max(min, n));
}

function oneOf<T extends string>(values: readonly T[], raw: string | null, fallback: T): T {
  return values.includes(raw as T) ? (raw as T) : fallback;
}

/** The search words from the address, cut at the longest the API takes. */
const qParam = (params: URLSearchParams): string => (params.get('q') ?? '').slice(0, SEARCH_QUERY_MAX_LENGTH);

function idsParam(params: URLSearchParams): string[] {
  const ids = (params.get('categories') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id && id.length <= 60);
  return [...new Set(ids)].slice(0, 50);
}

export function readSearchFilters(params: URLSearchParams): SearchFilters {
  const minValue = numberParam(params, 'minValue', VALUE_MIN, VALUE_MAX, SEARCH_DEFAULTS.minValue, VALUE_STEP);
  const maxValue = numberParam(params, 'maxValue', VALUE_MIN, VALUE_MAX, SEARCH_DEFAULTS.maxValue, VALUE_STEP);
  return {
    q: qParam(params),
    distanceKm: numberParam(params, 'distance', DISTANCE_MIN_KM, DISTANCE_MAX_KM, SEARCH_DEFAULTS.distanceKm),
    // Crossed sliders in a hand-edited address: the smaller one is the minimum.
    minValue: Math.min(minValue, maxValue),
    maxValue: Math.max(minValue, maxValue),
    kind: oneOf(KINDS, params.get('type'), 'all'),
    premium: params.get('premium') === 'true',
    categoryIds: idsParam(params),
  };
}

export function readServiceFilters(params: URLSearchParams): ServiceFilters {
  return {
    q: qParam(params),
    distanceKm: numberParam(params, 'distance', DISTANCE_MIN_KM, DISTANCE_MAX_KM, SERVICE_DEFAULTS.distanceKm),
    barterMode: oneOf(BARTER_MODES, params.get('barter'), 'all'),
    premium: params.get('premium') === 'true',
    categoryIds: idsParam(params),
  };
}

/** The address of the filters: only what differs from the defaults, so the bare page has a bare address. */
export function writeSearchFilters(f: SearchFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q);
  if (f.distanceKm !== SEARCH_DEFAULTS.distanceKm) params.set('distance', String(f.distanceKm));
  if (f.minValue !== SEARCH_DEFAULTS.minValue) params.set('minValue', String(f.minValue));
  if (f.maxValue !== SEARCH_DEFAULTS.maxValue) params.set('maxValue', String(f.maxValue));
  if (f.kind !== 'all') params.set('type', f.kind);
  if (f.premium) params.set('premium', 'true');
  if (f.categoryIds.length > 0) params.set('categories', f.categoryIds.join(','));
  return params;
}

export function writeServiceFilters(f: ServiceFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q);
  if (f.distanceKm !== SERVICE_DEFAULTS.distanceKm) params.set('distance', String(f.distanceKm));
  if (f.barterMode !== 'all') params.set('barter', f.barterMode);
  if (f.premium) params.set('premium', 'true');
  if (f.categoryIds.length > 0) params.set('categories', f.categoryIds.join(','));
  return params;
}

/** What GET /api/listing is asked (its page number is added per page). */
export interface SearchQuery {
  q?: string;
  distanceKm: string;
  minValue?: string;
  maxValue?: string;
  premium?: 'true';
  categoryIds?: string;
  listingType?: 'item' | 'service';
  barterMode?: BarterMode;
}

const common = (f: { q: string; distanceKm: number; premium: boolean; categoryIds: string[] }): SearchQuery => ({
  ...(f.q.trim() && { q: f.q.trim() }),
  distanceKm: String(f.distanceKm),
  ...(f.premium && { premium: 'true' as const }),
  ...(f.categoryIds.length > 0 && { categoryIds: f.categoryIds.join(',') }),
});

/** The search page's call: the maximum value only below the slider's end (spec 2 §9), the minimum only above 0. */
export function searchQuery(f: SearchFilters): SearchQuery {
  return {
    ...common(f),
    ...(f.minValue > VALUE_MIN && { minValue: String(f.minValue) }),
    ...(f.maxValue < VALUE_MAX && { maxValue: String(f.maxValue) }),
    ...(f.kind !== 'all' && { listingType: f.kind }),
  };
}

/** The services page's call: services only, with the barter policy. */
export function serviceQuery(f: ServiceFilters): SearchQuery {
  return { ...common(f), listingType: 'service', barterMode: f.barterMode };
}

/**
 * How many filters differ from the defaults, for the phone's 'Filters (n)' button: the distance,
 * the value range (one, whichever end moved), the kind, Premium only and the categories (one
 * however many are chosen). The keywords are the search itself, not a filter.
 */
export function activeSearchFilters(f: SearchFilters): number {
  return [
    f.distanceKm !== SEARCH_DEFAULTS.distanceKm,
    f.minValue !== SEARCH_DEFAULTS.minValue || f.maxValue !== SEARCH_DEFAULTS.maxValue,
    f.kind !== SEARCH_DEFAULTS.kind,
    f.premium,
    f.categoryIds.length > 0,
  ].filter(Boolean).length;
}
