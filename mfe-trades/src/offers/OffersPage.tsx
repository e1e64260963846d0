// /dashboard/offers, 'Jouw Ruilaanbiedingen' (spec 2 §2): one card per offer made or received, the
// counterpart, 'Naar' or 'Van', the listing it is on, its status and date, and the way to its chat.
// Issue 22: received and sent apart, the offers waiting for the member's answer marked, and each
// offer's unread chat messages (the notification service's unread chat notification of that offer:
// the chat keeps no read marks).
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { NOTIFICATION_PAGE_MAX, notificationApi, tradeApi, type Notification, type Offer } from '@ruilplein/contracts/browser';
import { EmptyState, formatDate, Loaded, Page, useApi, useSession } from '@ruilplein/ui';
import { ItemThumb } from '../common/ItemThumb.tsx';
import { Party } from '../common/Party.tsx';
import { StatusBadge } from '../common/StatusBadge.tsx';
import { isOpenForDetails, statusLabel } from '../common/status.ts';
import { unreadChats, waitingFor } from './waiting.ts';
import * as styles from './OffersPage.module.css';

function OfferCard({ offer, userId, unreadChat }: { offer: Offer; userId: string | undefined; unreadChat: Notification | undefined }) {
  const titleId = useId();
  const sent = offer.senderID === userId;
  const counterpart = sent ? offer.receiver : offer.sender;
  const waiting = waitingFor(offer, userId);
  // A swap chain: the other two members, and the listing this member receives.
  const member = offer.participants?.find((p) => p.id === userId);
  const others = offer.participants?.filter((p) => p.id !== userId) ?? [];
  const listing = member?.receives[0] ?? offer.listingOfferedOn;
  return (
    <li
      className={`${styles.card} ${styles[offer.status.toLowerCase()] ?? ''} ${waiting ? styles.waiting : ''}`}
      data-testid="offer-card"
      data-offer-id={offer.id}
      data-waiting={waiting ? 'true' : undefined}
    >
      {(waiting || unreadChat) && (
        <div className={styles.flags}>
          {waiting && (
            <span className={styles.waitingFlag} data-testid="offer-waiting">
              {waiting}
            </span>
          )}
          {unreadChat && (
            <span className={styles.chatFlag} data-testid="offer-unread-chat">
              {unreadChat.title}
            </span>
          )}
        </div>
      )}
      <div className={styles.head}>
        {member ? (
          <>
            <span className={styles.direction}>Ruilketen met</span>
            {others.map((p) => (
              <Party key={p.id} party={p} />
            ))}
          </>
        ) : (
          <>
            <span className={styles.direction}>{sent ? 'Naar' : 'Van'}</span>
            <Party party={counterpart} />
          </>
        )}
        <StatusBadge status={offer.status} />
      </div>
      <div className={styles.listing}>
        <ItemThumb item={listing} />
        <div className={styles.listingText}>
          <h3 id={titleId} className={styles.title}>
            <span className={styles.hidden}>{member ? `Ruilketen #${offer.id}, je krijgt: ` : `Ruilaanbieding #${offer.id}: `}</span>
            {listing.title}
          </h3>
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

function OfferGroup({ title, empty, offers, userId, chats }: { title: string; empty: string; offers: Offer[]; userId: string | undefined; chats: Map<number, Notification> }) {
  const headingId = useId();
  const waiting = offers.filter((offer) => waitingFor(offer, userId)).length;
  return (
    <section aria-labelledby={headingId} className={styles.group} data-testid={`offers-${title.toLowerCase()}`}>
      <h2 id={headingId} className={styles.groupTitle}>
        {title}
        {waiting > 0 && <span className={styles.groupCount}> ({waiting} {waiting === 1 ? 'wacht' : 'wachten'} op jou)</span>}
      </h2>
      {offers.length === 0 ? (
        <EmptyState>{empty}</EmptyState>
      ) : (
        <ul className={styles.list}>
          {offers.map((offer) => (
            <OfferCard key={offer.id} offer={offer} userId={userId} unreadChat={chats.get(offer.id)} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Those waiting for the member first, then the newest; otherwise the server's order. */
const byUrgency = (userId: string | undefined) => (a: Offer, b: Offer) => Number(Boolean(waitingFor(b, userId))) - Number(Boolean(waitingFor(a, userId)));

export function OffersPage() {
  const offers = useApi(tradeApi.my);
  // The newest notifications hold the unread chat ones (one per conversation); without them the cards just show no chat mark.
  const notifications = useApi(notificationApi.list, { query: { take: NOTIFICATION_PAGE_MAX } });
  const chats = unreadChats(notifications.data ?? []);
  const { user } = useSession();
  return (
    <Page title="Jouw Ruilaanbiedingen">
      <Loaded query={offers} label="Je ruilaanbiedingen worden geladen…" failure="Kan aanbiedingen niet ophalen.">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>Je hebt nog geen ruilaanbiedingen gedaan of ontvangen.</EmptyState>
          ) : (
            <>
              <OfferGroup
                title="Ontvangen"
                empty="Je hebt nog geen ruilaanbiedingen ontvangen."
                offers={list.filter((offer) => offer.senderID !== user?.id).sort(byUrgency(user?.id))}
                userId={user?.id}
                chats={chats}
              />
              <OfferGroup
                title="Verstuurd"
                empty="Je hebt nog geen ruilaanbiedingen gedaan."
                offers={list.filter((offer) => offer.senderID === user?.id).sort(byUrgency(user?.id))}
                userId={user?.id}
                chats={chats}
              />
            </>
          )
        }
      </Loaded>
    </Page>
  );
}
