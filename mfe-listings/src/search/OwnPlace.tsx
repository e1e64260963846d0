// The member's own place (from their full record): the centre of the search, or a hint to set it.
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { MapPinOff } from 'lucide-react';
import { userApi } from '@ruilplein/contracts/browser';
import { useApi } from '@ruilplein/ui';
import * as styles from './SearchPage.module.css';

const ListingMap = lazy(() => import('../common/ListingMap.tsx'));

export interface OwnPlace {
  city: string;
  latitude: number;
  longitude: number;
}

/** undefined while unknown (loading, or the record could not be read); null when the member set no place. */
export function useOwnPlace(): OwnPlace | null | undefined {
  const my = useApi(userApi.my);
  if (!my.data) return undefined;
  const { city, latitude, longitude } = my.data;
  return city && latitude !== undefined && longitude !== undefined ? { city, latitude, longitude } : null;
}

export function PlaceHint() {
  return (
    <p className={styles.placeHint} data-testid="place-hint">
      <MapPinOff aria-hidden="true" size={20} />
      <span>
        Je hebt nog geen woonplaats ingesteld, dus we kunnen niet op afstand zoeken. <Link to="/dashboard/profile">Stel je woonplaats in op je profiel</Link>.
      </span>
    </p>
  );
}

/** The round map with the radius, or the hint; nothing until the record is known. */
export function PlaceMap({ place, radiusKm }: { place: OwnPlace | null | undefined; radiusKm: number }) {
  if (place === undefined) return null;
  if (place === null) return <PlaceHint />;
  return (
    <Suspense fallback={<div className={styles.mapSpace} aria-hidden="true" />}>
      <ListingMap {...place} radiusKm={radiusKm} />
    </Suspense>
  );
}
