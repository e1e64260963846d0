// 'Trending in je buurt' on /dashboard (spec 1 §2, §4, §9): listings near the member's place, six a
// page, within a chosen radius. The shell's own small card: the listings remote's cards belong to
// another deployable.
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ImageOff, MapPin } from 'lucide-react';
import { listingApi, RECOMMENDATION_PAGE_SIZE, RECOMMENDATION_RADII_KM, userApi, type ListingCard } from '@ruilplein/contracts/browser';
import { EmptyState, formatDistance, LoadMore, Spinner, useApi, useApiPages } from '@ruilplein/ui';
import * as styles from './Trending.module.css';

type Radius = (typeof RECOMMENDATION_RADII_KM)[number];
/** The radius the dashboard starts with (spec 1 §9). */
const DEFAULT_RADIUS: Radius = 5;
/** Where the dashboard looks when nothing is near at the start (issue 27): the widest radius. */
const WIDER_RADIUS: Radius = RECOMMENDATION_RADII_KM[RECOMMENDATION_RADII_KM.length - 1]!;

function TrendingCard({ listing }: { listing: ListingCard }) {
  const photo = listing.thumbnailUrl || listing.imageUrl;
  const where = [listing.distanceInKm === null ? '' : formatDistance(listing.distanceInKm), listing.user.city ?? ''].filter(Boolean).join(' · ');
  return (
    <li className={styles.card} data-testid="trending-card">
      {photo ? (
        <div className={styles.photo}>
          {listing.placeholder && <img src={listing.placeholder} alt="" />}
          <img src={photo} alt="" loading="lazy" decoding="async" />
        </div>
      ) : (
        <div className={styles.noPhoto}>
          <ImageOff aria-hidden="true" size={28} strokeWidth={1.5} />
          Geen foto
        </div>
      )}
      <div className={styles.body}>
        <h3 className={styles.title}>{listing.title}</h3>
        {listing.isPremium && <span className={styles.premium}>Premium</span>}
        {where && (
          <p className={styles.where}>
            <MapPin aria-hidden="true" size={16} />
            {where}
          </p>
        )}
        <p className={styles.description}>{listing.description}</p>
        <Link to={`/dashboard/listing/${encodeURIComponent(listing.id)}`} className={styles.view} aria-label={`Bekijken: ${listing.title}`}>
          Bekijken
        </Link>
      </div>
    </li>
  );
}

/**
 * The listings within `radiusKm`. `onNothingNear`: called once the answer is empty (and not a
 * failure), for the dashboard to look further instead of showing an empty tile.
 */
function Recommendations({ userId, radiusKm, onNothingNear }: { userId: string; radiusKm: Radius; onNothingNear?: () => void }) {
  const pages = useApiPages(listingApi.recommendations, { query: { userId, radiusKm } }, { hasMore: (last) => last.length === RECOMMENDATION_PAGE_SIZE });
  const listings = pages.data?.pages.flat() ?? [];
  const nothingNear = pages.isSuccess && listings.length === 0;
  // A failure is logged and shows as no recommendations (spec 1 §8).
  useEffect(() => {
    if (pages.error) console.warn('Aanbevelingen ophalen mislukt', pages.error);
  }, [pages.error]);
  useEffect(() => {
    if (nothingNear) onNothingNear?.();
  }, [nothingNear, onNothingNear]);
  if (pages.isPending || (nothingNear && onNothingNear)) return <Spinner label="Aanbevelingen laden…" />;
  if (listings.length === 0) return <EmptyState>Er zijn nog geen aanbevelingen in je buurt. Zodra buren iets aanbieden, zie je het hier.</EmptyState>;
  return (
    <>
      <ul className={styles.cards}>
        {listings.map((listing) => (
          <TrendingCard key={listing.id} listing={listing} />
        ))}
      </ul>
      <LoadMore pages={pages} />
    </>
  );
}

export function Trending({ userId }: { userId: string }) {
  const [radiusKm, setRadiusKm] = useState<Radius>(DEFAULT_RADIUS);
  // Until the member picks a radius, an empty start widens to WIDER_RADIUS, with a note saying so.
  const [picked, setPicked] = useState(false);
  const [widenedFrom, setWidenedFrom] = useState<Radius | null>(null);
  const widen = useCallback(() => {
    setWidenedFrom(DEFAULT_RADIUS);
    setRadiusKm(WIDER_RADIUS);
  }, []);
  const pick = (km: Radius) => {
    setPicked(true);
    setWidenedFrom(null);
    setRadiusKm(km);
  };
  // The member's own record says whether they have a place to be near (the session copy does not).
  const my = useApi(userApi.my);
  const placeless = my.data !== undefined && (my.data.latitude === undefined || my.data.longitude === undefined);
  return (
    <section className={styles.trending} aria-labelledby="trending">
      <div className={styles.header}>
        <h2 id="trending">Trending in je buurt</h2>
        {!placeless && (
          <fieldset className={styles.radii}>
            <legend>Straal</legend>
            {RECOMMENDATION_RADII_KM.map((km) => (
              <label key={km} className={styles.radius}>
                <input type="radio" name="trending-radius" value={km} checked={radiusKm === km} onChange={() => pick(km)} />
                <span>{km} km</span>
              </label>
            ))}
          </fieldset>
        )}
      </div>
      {placeless ? (
        <p className={styles.hint} data-testid="trending-place-hint">
          Stel je woonplaats in op <Link to="/dashboard/profile">je profiel</Link> om te zien wat er in je buurt wordt aangeboden.
        </p>
      ) : (
        <>
          {widenedFrom !== null && (
            <p className={styles.widened} role="status" data-testid="trending-widened">
              Binnen {widenedFrom} km wordt nog niets aangeboden. Daarom zie je hier het aanbod tot {radiusKm} km van je woonplaats.
            </p>
          )}
          <Recommendations
            key={radiusKm}
            userId={userId}
            radiusKm={radiusKm}
            onNothingNear={!picked && widenedFrom === null && radiusKm === DEFAULT_RADIUS ? widen : undefined}
          />
        </>
      )}
    </section>
  );
}
