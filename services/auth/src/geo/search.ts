import type { Place } from '@ruilplein/contracts';
import type { Logger } from '@ruilplein/service-kit';
import { z } from 'zod';
import { readBundledPlaces } from './bundled.ts';
import { DUTCH_NAMES, normalizeName, searchKeys } from './names.ts';
import { createUpstreamGeocoder, type UpstreamGeocoder } from './upstream.ts';

/** Variables of place search, for the auth service's config. */
export const geoConfig = z.object({
  /** A Nominatim-compatible search URL, asked only when the bundled list knows no place. */
  GEO_UPSTREAM_URL: z.url().optional(),
});

export interface PlaceSearch {
  /** Best match first; at equal match Dutch places before Belgian ones, then larger before smaller. */
  search(q: string, limit: number): Promise<Place[]>;
  /** Number of places in the bundled index. */
  readonly size: number;
}

interface Entry {
  place: Place;
  population: number;
  keys: string[];
  /** The keys without spaces, so "denhaag" and "sgravenhage" match too. */
  compact: string[];
}

const compact = (key: string) => key.replaceAll(' ', '');

/**
 * 0: the whole name; 1: the start of the name; 2: the start of a later word, or of the name with
 * its spaces left out ("sgravenha"); undefined: no match.
 */
function matchTier(entry: Entry, q: string, qc: string): number | undefined {
  let best: number | undefined;
  entry.keys.forEach((key, i) => {
    const tier =
      key === q || entry.compact[i] === qc ? 0
      : key.startsWith(q) ? 1
      : key.includes(` ${q}`) || entry.compact[i]!.startsWith(qc) ? 2
      : undefined;
    if (tier !== undefined && (best === undefined || tier < best)) best = tier;
  });
  return best;
}

function buildIndex(): Entry[] {
  return readBundledPlaces(['NL', 'BE']).map(({ population, ...place }) => {
    const dutch = DUTCH_NAMES[`${place.country}:${place.name}`];
    const names = [place.name, ...(dutch?.name ? [dutch.name] : []), ...(dutch?.aliases ?? [])];
    const keys = [...new Set(names.flatMap(searchKeys))];
    return { place: { ...place, name: dutch?.name ?? place.name }, population, keys, compact: keys.map(compact) };
  });
}

/**
 * Place search over the bundled Dutch and Belgian places (loaded once, about 2,000 entries, so a
 * scan per query takes well under a millisecond). With an upstream geocoder configured, queries
 * the bundled list cannot answer (villages under 1,000 inhabitants) are asked there.
 */
export function createPlaceSearch(options: { logger: Logger; upstreamUrl?: string }): PlaceSearch {
  const started = performance.now();
  const index = buildIndex();
  options.logger.info({ places: index.length, ms: Math.round(performance.now() - started) }, 'place index loaded');
  const upstream: UpstreamGeocoder | undefined = options.upstreamUrl
    ? createUpstreamGeocoder({ url: options.upstreamUrl, logger: options.logger })
    : undefined;

  return {
    size: index.length,
    async search(text, limit) {
      const q = normalizeName(text);
      if (!q) return [];
      const qc = compact(q);
      const hits: { entry: Entry; tier: number }[] = [];
      for (const entry of index) {
        const tier = matchTier(entry, q, qc);
        if (tier !== undefined) hits.push({ entry, tier });
      }
      hits.sort(
        (a, b) =>
          a.tier - b.tier ||
          Number(b.entry.place.country === 'NL') - Number(a.entry.place.country === 'NL') ||
          b.entry.population - a.entry.population ||
          a.entry.place.name.localeCompare(b.entry.place.name, 'nl'),
      );
      if (hits.length === 0 && upstream) return upstream(text, limit);
      return hits.slice(0, limit).map((h) => h.entry.place);
    },
  };
}
