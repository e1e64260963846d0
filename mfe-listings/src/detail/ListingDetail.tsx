// /dashboard/listing/:id (spec 2 §2): photos, title, how far and whose, the description, value,
// categories, date, and what the member can do with it: wishlist, report and offer, or edit their own.
import { Link, useParams } from 'react-router-dom';
import { CalendarDays, Flag, MapPin, Pencil, UserRound } from 'lucide-react';
import { listingApi, OFFER_DAILY_LIMIT, type Listing } from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, failureMessage, formatDate, ReportDialog, Spinner, useApi, useSession } from '@ruilplein/ui';
import { CategoryIcon } from '../categories/CategoryIcon.tsx';
import { Badge, ListingBadges } from '../common/Badges.tsx';
import { distanceAndCity, formatValue } from '../common/format.ts';
import { PhotoCarousel } from '../common/PhotoCarousel.tsx';
import { Description } from './Description.tsx';
import { WishlistToggle } from './WishlistToggle.tsx';
import * as styles from './ListingDetail.module.css';

const NOT_FOUND = 'Listing niet gevonden.';

/** The photos for the carousel: every photo, or the card's one image of an older listing. */
function photosOf(listing: Listing) {
  const sources = listing.listingPhotos.length > 0 ? listing.listingPhotos.map((photo) => photo.imageUrl) : listing.imageUrl ? [listing.imageUrl] : [];
  return sources.map((src, i) => ({ src, alt: sources.length === 1 ? listing.title : `${listing.title}, foto ${i + 1}` }));
}

/** 'Doe een aanbod!', or the daily limit of a member without Premium (spec 2 §6). */
function OfferAction({ listingId }: { listingId: string }) {
  const { isPremium, isAdmin, amountOfTrades } = useSession();
  if (!isPremium && !isAdmin && amountOfTrades >= OFFER_DAILY_LIMIT)
    return (
      <div className={styles.limit} data-testid="offer-limit">
        <p>Je hebt je dagelijkse limiet van {OFFER_DAILY_LIMIT} ruilverzoeken bereikt.</p>
        <Link to="/dashboard/membership">Word Premium om onbeperkt te kunnen ruilen</Link>
      </div>
    );
  return (
    <Link to={`/dashboard/listing/${encodeURIComponent(listingId)}/offer`} className={`${buttonClass()} ${styles.offer}`}>
      Doe een aanbod!
    </Link>
  );
}

function Details({ listing }: { listing: Listing }) {
  const { user } = useSession();
  const own = listing.user.id === user?.id;
  const where = distanceAndCity(listing.distanceInKm, listing.user.city);
  const photos = photosOf(listing);
  return (
    <article className={styles.detail}>
      <div className={styles.gallery}>
        {photos.length > 0 ? <PhotoCarousel photos={photos} counter="slash" /> : <div className={styles.noPhoto}>Geen foto</div>}
      </div>
      <div className={styles.info}>
        {listing.isPremium && <p className={styles.premiumLabel}>Premium Listing</p>}
        <h1 className={styles.title}>{listing.title}</h1>
        <div className={styles.meta}>
          {own ? (
            <>
              <Badge tone="own">Jouw listing!</Badge>
              <Link to={`/dashboard/edit-listing/${encodeURIComponent(listing.id)}`} className={buttonClass('secondary')}>
                <Pencil aria-hidden="true" size={16} />
                Bewerken
              </Link>
            </>
          ) : (
            <>
              {where && (
                <span className={styles.distance} data-testid="listing-distance">
                  <MapPin aria-hidden="true" size={16} />
                  {where}
                </span>
              )}
              <WishlistToggle listingId={listing.id} />
            </>
          )}
        </div>
        <ListingBadges listing={listing} />
        <Description text={listing.description} />
        <dl className={styles.facts}>
          <div>
            <dt>Geschatte waarde</dt>
            <dd className={styles.value}>{listing.initialValue === null ? 'Geen waarde opgegeven' : formatValue(listing.initialValue)}</dd>
          </div>
          <div>
            <dt>
              <CalendarDays aria-hidden="true" size={16} /> Geplaatst op
            </dt>
            <dd>{formatDate(listing.createdAt)}</dd>
          </div>
          <div>
            <dt>
              <UserRound aria-hidden="true" size={16} /> Aangeboden door
            </dt>
            <dd>
              <Link to={`/dashboard/user/${encodeURIComponent(listing.user.id)}`}>
                {listing.user.firstName} {listing.user.lastName}
              </Link>
            </dd>
          </div>
        </dl>
        {listing.listingCategories.length > 0 && (
          <section aria-labelledby="listing-categories">
            <h2 id="listing-categories" className={styles.subheading}>
              Categorieën
            </h2>
            <ul className={styles.categories}>
              {listing.listingCategories.map((category) => (
                <li key={category.id}>
                  <CategoryIcon name={category.icon} />
                  {category.name}
                </li>
              ))}
            </ul>
          </section>
        )}
        {!own && (
          <div className={styles.actions}>
            <OfferAction listingId={listing.id} />
            <ReportDialog
              reportedId={listing.user.id}
              listingId={listing.id}
              title="Listing rapporteren"
              intro="Vertel ons wat er niet klopt aan deze listing. Een beheerder bekijkt je melding."
              icon={<Flag aria-hidden="true" size={16} />}
              className={styles.report}
            />
          </div>
        )}
      </div>
    </article>
  );
}

export function ListingDetail() {
  const { id = '' } = useParams();
  const listing = useApi(listingApi.get, { params: { id } }, { enabled: Boolean(id) });
  if (listing.isPending) return <Spinner label="Laden..." />;
  if (listing.isError) {
    // Gone, never there, or not for this member (premium-only, or too new): all the same to them.
    const missing = listing.error instanceof ApiError && [400, 403, 404].includes(listing.error.status);
    return (
      <section className={styles.page}>
        <h1 className={styles.title}>Listing</h1>
        <p role="alert" className={styles.failed}>
          {missing ? NOT_FOUND : failureMessage(listing.error)}
        </p>
        {!missing && (
          <button type="button" className={buttonClass()} onClick={() => void listing.refetch()}>
            Opnieuw proberen
          </button>
        )}
      </section>
    );
  }
  return (
    <section className={styles.page}>
      <Details listing={listing.data} />
    </section>
  );
}
