// The small labels on listing cards and the detail page (spec 2 §2): Premium, the kind, the barter
// policy of a service, and the owner's own.
import type { ReactNode } from 'react';
import type { ListingCard } from '@ruilplein/contracts/browser';
import * as styles from './Badges.module.css';

type Kind = Pick<ListingCard, 'isPremium' | 'listingType' | 'acceptsItems'>;

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'premium' | 'green' | 'own'; children: ReactNode }) {
  return <span className={styles[tone]}>{children}</span>;
}

/** A service's barter policy as the services page words it. */
export const barterLabel = (acceptsItems: boolean) => (acceptsItems ? 'Diensten + spullen' : 'Alleen diensten');

/**
 * Premium, then 'Item', or 'Dienst' with 'Accepteert ook spullen' / 'Alleen diensten'. On the
 * services page (`services`) every card is a service: only its policy, worded shorter.
 */
export function ListingBadges({ listing, services = false }: { listing: Kind; services?: boolean }) {
  return (
    <span className={styles.badges}>
      {listing.isPremium && <Badge tone="premium">Premium</Badge>}
      {services ? (
        <Badge tone="green">{barterLabel(listing.acceptsItems)}</Badge>
      ) : listing.listingType === 'service' ? (
        <>
          <Badge tone="green">Dienst</Badge>
          <Badge>{listing.acceptsItems ? 'Accepteert ook spullen' : 'Alleen diensten'}</Badge>
        </>
      ) : (
        <Badge tone="green">Item</Badge>
      )}
    </span>
  );
}
