// Great-circle geometry on unit vectors: a place is stored as (x, y, z) on the unit sphere, so
// "within R km" is one comparison of the squared chord (three multiplications) and the distance
// shown is 2·R·asin(chord/2), the same number the haversine formula of the detail page gives.

/** The mean earth radius the listing detail page uses too (the listing service's listings/visibility.ts). */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export function toVec(latitude: number, longitude: number): Vec3 {
  const lat = latitude * RAD;
  const lon = longitude * RAD;
  const c = Math.cos(lat);
  return { x: c * Math.cos(lon), y: c * Math.sin(lon), z: Math.sin(lat) };
}

/** The squared chord between two places `km` apart along the surface. */
export function chord2ForKm(km: number): number {
  const half = Math.min(Math.PI / 2, km / EARTH_RADIUS_KM / 2);
  const s = 2 * Math.sin(half);
  return s * s;
}

/** Surface distance in km for a squared chord. */
export function kmForChord2(c2: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(c2) / 2));
}

/** As answered: one decimal. */
export const roundKm = (km: number) => Math.round(km * 10) / 10;

export const isPlace = (latitude: unknown, longitude: unknown): boolean =>
  typeof latitude === 'number' && typeof longitude === 'number' && Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;

/** Latitude and longitude bounds of a circle (longitudes may wrap: then the whole range). */
export function boundsOf(latitude: number, longitude: number, km: number): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  const dLat = km / (EARTH_RADIUS_KM * RAD);
  const minLat = latitude - dLat;
  const maxLat = latitude + dLat;
  if (minLat <= -90 || maxLat >= 90) return { minLat: Math.max(-90, minLat), maxLat: Math.min(90, maxLat), minLon: -180, maxLon: 180 };
  // The widest longitude span of the circle is at its latitude extreme nearest a pole; asin gives it exactly.
  const ratio = Math.sin(km / EARTH_RADIUS_KM) / Math.cos(latitude * RAD);
  if (ratio >= 1) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  const dLon = Math.asin(ratio) / RAD;
  return { minLat, maxLat, minLon: longitude - dLon, maxLon: longitude + dLon };
}
