// 'Nieuw in het aanbod' on the landing page (issue 27): the newest listings anyone may see, from
// GET /api/listing/recent. Prerendered at build time as eight empty cards of the cards' own size
// (the build has no listings to show, and the list changes by the minute); after hydration the
// browser asks for the list and fills the same places, and again every minute while the page is
// open. The answer is the same for everyone, so the services and caches keep it a few seconds.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ImageOff, MapPin, Tag } from 'lucide-react';
import { listingApi, RECENT_LISTINGS_MAX, type PublicListing } from '@ruilplein/contracts/browser';
import { apiQuery, buttonClass, EmptyState, ErrorMessage, useSession } from '@ruilplein/ui';
import { loginReturningTo } from '../account/returnTo.ts';
import * as styles from './RecentListings.module.css';

/** How often an open landing page asks for the list again. */
const REFRESH_MS = 60_000;

/** The listing's page; a guest logs in first and comes back to it (as the search box does). */
const listingPath = (id: string, signedIn: boolean) => {
  const path = `/dashboard/listing/${encodeURIComponent(id)}`;
  return signedIn ? path : loginReturningTo(path);
};

function Photo({ listing }: { listing: PublicListing }) {
  if (!listing.thumbnailUrl)
    return (
      <div className={styles.noPhoto}>
        <ImageOff aria-hidden="true" size={28} strokeWidth={1.5} />
        <span>Geen foto</span>
      </div>
    );
  return (
    <div className={styles.photo}>
      {/* Decorative: the title beside it names the listing. */}
      {listing.placeholder && <img className={styles.placeholder} src={listing.placeholder} alt="" />}
      <img className={styles.picture} src={listing.thumbnailUrl} alt="" loading="lazy" decoding="async" />
    </div>
  );
}

function RecentCard({ listing, signedIn }: { listing: PublicListing; signedIn: boolean }) {
  const category = listing.listingCategories[0]?.name ?? (listing.listingType === 'service' ? 'Dienst' : 'Spullen');
  return (
    <li className={styles.card} data-testid="recent-listing">
      <Photo listing={listing} />
      <div className={styles.body}>
        <h3 className={styles.title}>
          <Link to={listingPath(listing.id, signedIn)} className={styles.link}>
            {listing.title}
          </Link>
        </h3>
        <p className={styles.meta}>
          <Tag aria-hidden="true" size={14} />
          <span>{category}</span>
        </p>
        {listing.city && (
          <p className={styles.meta}>
            <MapPin aria-hidden="true" size={14} />
            <span>{listing.city}</span>
          </p>
        )}
      </div>
    </li>
  );
}

/** The cards' places while the list loads: the same size, so nothing below moves when it comes. */
function Placeholders() {
  return (
    <ul className={styles.list} aria-hidden="true" data-testid="recent-placeholders">
      {Array.from({ length: RECENT_LISTINGS_MAX }, (_, i) => (
        <li key={i} className={`${styles.card} ${styles.skeleton}`}>
          <div className={styles.photo} />
          <div className={styles.body}>
            <span className={styles.line} />
            <span className={`${styles.line} ${styles.short}`} />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function RecentListings({ className }: { className?: string }) {
  const { isAuthenticated } = useSession();
  const recent = useQuery({ ...apiQuery(listingApi.recent), refetchInterval: REFRESH_MS });
  return (
    <section className={className} aria-labelledby="nieuw-aanbod" aria-busy={!recent.data && !recent.isError} data-testid="recent-listings">
      <h2 id="nieuw-aanbod">Nieuw in het aanbod</h2>
      <p className={styles.lead}>
        Dit bieden leden nu aan. {isAuthenticated ? 'Bekijk een listing om een ruil voor te stellen.' : 'Log in of registreer om te reageren en te ruilen.'}
      </p>
      {/* A failed refresh keeps the cards shown; only a list never loaded becomes the error. */}
      {recent.data ? (
        recent.data.length === 0 ? (
          <div className={styles.empty}>
            <EmptyState>Er staat nog geen aanbod voor iedereen klaar. Zet jij het eerste online?</EmptyState>
            {!isAuthenticated && (
              <Link to="/register" className={buttonClass('secondary')}>
                Registreer en plaats je aanbod
              </Link>
            )}
          </div>
        ) : (
          <ul className={styles.list}>
            {recent.data.map((listing) => (
              <RecentCard key={listing.id} listing={listing} signedIn={isAuthenticated} />
            ))}
          </ul>
        )
      ) : recent.isError ? (
        <ErrorMessage message="Het nieuwe aanbod kon niet worden geladen." onRetry={() => void recent.refetch()} />
      ) : (
        <>
          <p role="status" className={styles.srOnly}>
            Nieuw aanbod laden…
          </p>
          <Placeholders />
        </>
      )}
    </section>
  );
}
