import { PLACE_COUNTRIES, type Place } from '@ruilplein/contracts';
import type { Logger } from '@ruilplein/service-kit';
import { z } from 'zod';

/** The fields we read of a Nominatim-style `/search?format=jsonv2&addressdetails=1` answer. */
const UpstreamHitSchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
  name: z.string().optional(),
  display_name: z.string(),
  address: z.object({ country_code: z.string(), state: z.string().optional() }),
});

export type UpstreamGeocoder = (q: string, limit: number) => Promise<Place[]>;

/**
 * A Nominatim-compatible search endpoint (`GEO_UPSTREAM_URL`, for example
 * https://nominatim.openstreetmap.org/search), asked for Dutch and Belgian places only. A slow,
 * failing or garbled upstream yields no places rather than an error: the bundled list already
 * answered, this only fills its gaps.
 */
export function createUpstreamGeocoder(options: { url: string; logger: Logger; timeoutMs?: number }): UpstreamGeocoder {
  const { logger } = options;
  return async (q, limit) => {
    const url = new URL(options.url);
    url.searchParams.set('q', q);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('addressdetails', '1');
    url.searchParams.set('countrycodes', PLACE_COUNTRIES.join(',').toLowerCase());
    url.searchParams.set('accept-language', 'nl');
    url.searchParams.set('limit', String(limit));
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'Ruilplein/1.0 (plaatsen zoeken)' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 2000),
      });
      if (!res.ok) throw new Error(`upstream answered ${res.status}`);
      const hits = z.array(z.unknown()).parse(await res.json());
      const places: Place[] = [];
      for (const raw of hits) {
        const hit = UpstreamHitSchema.safeParse(raw);
        if (!hit.success) continue;
        const country = hit.data.address.country_code.toUpperCase();
        if (!(PLACE_COUNTRIES as readonly string[]).includes(country)) continue;
        places.push({
          name: hit.data.name || hit.data.display_name.split(',')[0]!.trim(),
          region: hit.data.address.state,
          country: country as Place['country'],
          latitude: hit.data.lat,
          longitude: hit.data.lon,
        });
      }
      return places;
    } catch (err) {
      logger.warn({ err }, 'upstream geocoder failed; answering from the bundled list only');
      return [];
    }
  };
}
