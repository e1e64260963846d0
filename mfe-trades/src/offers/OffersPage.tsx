// /dashboard/offers, 'Jouw Ruilaanbiedingen' (spec 2 §2): one card per offer made or received, the
// counterpart, 'Naar' or 'Van', the listing it is on, its status and date, and the way to its chat.
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { tradeApi, type Offer } from '@ruilplein/contracts/browser';
import { EmptyState, formatDate, Loaded, Page, useApi, useSession } from '@ruilplein/ui';
import { ItemThumb } from '../common/ItemThumb.tsx';
import { Party } from '../common/Party.tsx';
import { StatusBadge } from '../common/StatusBadge.tsx';
import { isOpenForDetails, statusLabel } from '../common/status.ts';
import * as styles from './OffersPage.module.css';

function OfferCard({ offer, userId }: { offer: Offer; userId: string | undefined }) {
  const titleId = useId();
  const sent = offer.senderID === userId;
  const counterpart = sent ? offer.receiver : offer.sender;
  return (
    <li className={`${styles.card} ${styles[offer.status.toLowerCase()] ?? ''}`} data-testid="offer-card" data-offer-id={offer.id}>
      <div className={styles.head}>
        <span className={styles.direction}>{sent ? 'Naar' : 'Van'}</span>
        <Party party={counterpart} />
        <StatusBadge status={offer.status} />
      </div>
      <div className={styles.listing}>
        <ItemThumb item={offer.listingOfferedOn} />
        <div className={styles.listingText}>
          <h2 id={titleId} className={styles.title}>
            <span className={styles.hidden}>Ruilaanbieding #{offer.id}: </span>
            {offer.listingOfferedOn.title}
          </h2>
          <p className={styles.date}>Gemaakt op {formatDate(offer.createdAt)}</p>
        </div>
      </div>
      <div className={styles.footer}>
        {isOpenForDetails(offer.status) ? (
          <Link to={`/dashboard/tradeoffer/${offer.id}`} className={styles.details} aria-describedby={titleId}>
            Bekijk chat & details
          </Link>
        ) : (
          <p className={styles.closed}>{statusLabel(offer.status)}</p>
        )}
      </div>
    </li>
  );
}

export function OffersPage() {
  const offers = useApi(tradeApi.my);
  const { user } = useSession();
  return (
    <Page title="Jouw Ruilaanbiedingen">
      <Loaded query={offers} label="Je ruilaanbiedingen worden geladen…" failure="Kan aanbiedingen niet ophalen.">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>Je hebt nog geen ruilaanbiedingen gedaan of ontvangen.</EmptyState>
          ) : (
            <ul className={styles.list}>
              {list.map((offer) => (
                <OfferCard key={offer.id} offer={offer} userId={user?.id} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </Page>
  );
}
