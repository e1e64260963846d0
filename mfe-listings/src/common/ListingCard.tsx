// A listing in a result list (search, services): photo, title linking to the detail, badges, how far
// and where, and the estimated value. The whole card is the link's target area.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ImageOff, MapPin } from 'lucide-react';
import { reliabilityLine, type ListingCard as Card, type Reliability } from '@ruilplein/contracts/browser';
import { Badge, ListingBadges } from './Badges.tsx';
import { distanceAndCity, formatValue } from './format.ts';
import * as styles from './ListingCard.module.css';

/** The photo of a card, over its blurred stand-in; a drawn placeholder when the listing has none. */
export function ListingThumbnail({ listing }: { listing: Pick<Card, 'thumbnailUrl' | 'imageUrl' | 'placeholder'> }) {
  const src = listing.thumbnailUrl || listing.imageUrl;
  if (!src)
    return (
      <div className={styles.noPhoto}>
        <ImageOff aria-hidden="true" size={32} strokeWidth={1.5} />
        <span>Geen foto</span>
      </div>
    );
  return (
    <div className={styles.thumbnail}>
      {/* Both decorative: the title beside them names the listing. */}
      {listing.placeholder && <img className={styles.placeholder} src={listing.placeholder} alt="" />}
      <img className={styles.photo} src={src} alt="" loading="lazy" decoding="async" />
    </div>
  );
}

/**
 * One card. `own` marks the member's own listing ('Jouw listing!', or `ownLabel`); `services`
 * words the badges as the services page does; `reliability`, the owner's, adds its line.
 */
export function ListingCard({ listing, own, ownLabel = 'Jouw listing!', services = false, reliability }: { listing: Card; own: boolean; ownLabel?: string; services?: boolean; reliability?: Reliability }) {
  const where = distanceAndCity(listing.distanceInKm, listing.user.city);
  return (
    <li className={styles.card} data-testid="listing-card">
      <ListingThumbnail listing={listing} />
      <div className={styles.body}>
        <h3 className={styles.title}>
          <Link to={`/dashboard/listing/${encodeURIComponent(listing.id)}`} className={styles.link}>
            {listing.title}
          </Link>
        </h3>
        <div className={styles.badges}>
          {own && <Badge tone="own">{ownLabel}</Badge>}
          <ListingBadges listing={listing} services={services} />
        </div>
        {where && (
          <p className={styles.where}>
            <MapPin aria-hidden="true" size={16} />
            <span>{where}</span>
          </p>
        )}
        <p className={styles.value}>{listing.initialValue === null ? <span className={styles.noValue}>Geen waarde opgegeven</span> : formatValue(listing.initialValue)}</p>
        {reliability && !own && (
          <p className={styles.reliability} data-testid="card-reliability">
            {reliabilityLine(reliability)}
          </p>
        )}
      </div>
    </li>
  );
}

/** The list the cards go in; `label` names it when there is no heading to (a member's listings on their profile). */
export function ListingCardList({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className={styles.list} aria-label={label}>
      {children}
    </ul>
  );
}
