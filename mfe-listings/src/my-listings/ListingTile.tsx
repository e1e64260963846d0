import { useId, type ReactNode } from 'react';
import type { Listing } from '@ruilplein/contracts/browser';
import { Link } from 'react-router-dom';
import { Badge, ListingBadges } from '../common/Badges.tsx';
import { ListingThumbnail } from '../common/ListingCard.tsx';
import * as styles from './ListingTile.module.css';

type TileListing = Pick<Listing, 'id' | 'title' | 'description' | 'imageUrl' | 'thumbnailUrl' | 'placeholder' | 'isPremium' | 'listingType' | 'acceptsItems' | 'isActive'>;

/**
 * An own listing as a card of 'Mijn Listings' (spec 2 §2): photo (or a stand-in), title linking to
 * the detail, badges, the description clamped to three lines, and the actions given, which get the
 * title's id to describe themselves with.
 */
export function ListingTile({ listing, actions }: { listing: TileListing; actions?: (titleId: string) => ReactNode }) {
  const titleId = useId();
  return (
    <article className={styles.tile} data-testid="listing-tile" data-listing-id={listing.id}>
      <ListingThumbnail listing={listing} />
      <div className={styles.body}>
        <h2 className={styles.title} id={titleId}>
          <Link to={`/dashboard/listing/${encodeURIComponent(listing.id)}`}>{listing.title}</Link>
        </h2>
        <div className={styles.badges}>
          <ListingBadges listing={listing} />
          {!listing.isActive && <Badge>Niet actief</Badge>}
        </div>
        <p className={styles.description}>{listing.description}</p>
        {actions && <div className={styles.actions}>{actions(titleId)}</div>}
      </div>
    </article>
  );
}
