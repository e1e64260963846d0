// /dashboard/tradeoffer/:id, 'Ruilaanbieding #{id}' (spec 2 §2 'Trade offer detail and chat'): the
// parties, what is asked and what is offered, the request's message, reporting the other party,
// what can be done in the offer's status, and the chat. On a phone the chat is far down the page: a
// button that stays in view takes you (and the keyboard focus) there (issue 27).
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { DEFAULT_CRATE, reliabilityLine, tradeApi, userApi, type Offer, type OfferItem } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, BlockButton, ErrorMessage, failureMessage, formatDate, Page, ReportDialog, Spinner, useApi, useSession } from '@ruilplein/ui';
import { Chat } from '../chat/Chat.tsx';
import type { CounterSent } from '../create/OfferBuilder.tsx';
import { ItemThumb } from '../common/ItemThumb.tsx';
import { Notice } from '../common/Notice.tsx';
import { Party } from '../common/Party.tsx';
import { StatusBadge } from '../common/StatusBadge.tsx';
import { isClosed, sideOf } from '../common/status.ts';
import { ChainOfferBody, isChainOffer } from './ChainOffer.tsx';
import { StatusActions } from './StatusActions.tsx';
import { OfferMessage } from './OfferMessage.tsx';
import * as styles from './OfferDetail.module.css';

// The builder (drag and drop) is loaded when a counter-offer is made, not with every offer's page.
const CounterOffer = lazy(() => import('../create/CounterOffer.tsx').then((m) => ({ default: m.CounterOffer })));

/** The search parameter that shows the counter-offer's builder (so the back button leaves it). */
const COUNTER_PARAM = 'tegenbod';

/** While an offer can still change, the other party may change it: it is read again now and then. */
const REFRESH_MS = 10_000;

function ItemList({ items }: { items: OfferItem[] }) {
  if (items.length === 0) return <p className={styles.none}>Geen items.</p>;
  return (
    <ul className={styles.items}>
      {items.map((item) => (
        <li key={`${item.userID}:${item.listingID}`} className={styles.item}>
          <ItemThumb item={item} size="large" />
          <div className={styles.itemText}>
            <h3 className={styles.itemTitle}>
              {item.isDefault || item.listingID === DEFAULT_CRATE.listingID ? item.title : <Link to={`/dashboard/listing/${encodeURIComponent(item.listingID)}`}>{item.title}</Link>}
            </h3>
            {item.description && <p className={styles.description}>{item.description}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}

function Panel({ title, items, testId }: { title: string; items: OfferItem[]; testId: string }) {
  const headingId = useId();
  return (
    <section className={styles.panel} aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId} className={styles.panelTitle}>
        {title}
      </h2>
      <ItemList items={items} />
    </section>
  );
}

/**
 * On a phone the chat comes after a long page: a 'Chat met …' button fixed at the bottom of the
 * screen (CSS shows it below 700 px only) while the chat's message field is out of view. It comes
 * early in the tab order (right after the header), scrolls to the chat and moves the focus into it:
 * the message field, or the messages once the chat is closed.
 */
function useChatJump() {
  const chat = useRef<HTMLDivElement>(null);
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const target = chat.current?.querySelector('form') ?? chat.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setInView(!!entry?.isIntersecting));
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  const jump = () => {
    const element = chat.current;
    if (!element) return;
    element.scrollIntoView({ block: 'end' });
    (element.querySelector<HTMLElement>('input:not([disabled])') ?? element.querySelector<HTMLElement>('[role="log"]'))?.focus({ preventScroll: true });
  };
  return { chat, inView, jump };
}

/** The other party's reliability (issue 24): nothing while loading or when it cannot be read. */
function ReliabilityLine({ userId }: { userId: string }) {
  const score = useApi(userApi.reliability, { params: { id: userId } });
  if (!score.data) return null;
  return (
    <p className={styles.reliability} data-testid="reliability">
      {reliabilityLine(score.data)} <Link to="/ruilregels#betrouwbaarheid">Hoe berekenen we dit?</Link>
    </p>
  );
}

/** The links of a chain of counter-offers (issue 24): to the offer this one answers, and to its answer. */
function CounterLinks({ offer }: { offer: Offer }) {
  if (offer.counterOf === null && offer.counteredBy === null) return null;
  return (
    <div className={styles.counterLinks} data-testid="counter-links">
      {offer.counterOf !== null && (
        <p className={styles.explain}>
          <Link to={`/dashboard/tradeoffer/${offer.counterOf}`} data-testid="counter-of">
            Tegenbod op Ruilaanbieding #{offer.counterOf}
          </Link>
        </p>
      )}
      {offer.counteredBy !== null && (
        <p className={styles.explain}>
          Dit aanbod is afgewezen met een tegenbod.{' '}
          <Link to={`/dashboard/tradeoffer/${offer.counteredBy}`} data-testid="countered-by">
            Tegenbod: Ruilaanbieding #{offer.counteredBy}
          </Link>
        </p>
      )}
    </div>
  );
}

/** The offer, or (its receiver asked for it while it is Pending) the builder of a counter-offer. */
function OfferView({ offer }: { offer: Offer }) {
  const { user } = useSession();
  const [search, setSearch] = useSearchParams();
  // A swap chain (issue 24): three members, no counter-offer.
  if (isChainOffer(offer)) return <ChainOfferBody offer={offer} />;
  const canCounter = !!user && offer.receiverID === user.id && offer.status === 'Pending';
  const setCountering = (on: boolean) => setSearch(on ? { [COUNTER_PARAM]: '1' } : {}, { preventScrollReset: true });
  if (canCounter && search.get(COUNTER_PARAM) === '1')
    return (
      <Suspense fallback={<Spinner label="Laden..." />}>
        <CounterOffer offer={offer} userId={user.id} onClose={() => setCountering(false)} />
      </Suspense>
    );
  return <OfferBody offer={offer} onCounter={() => setCountering(true)} />;
}

function OfferBody({ offer, onCounter }: { offer: Offer; onCounter: () => void }) {
  const { user } = useSession();
  const side = sideOf(offer, user?.id);
  // The listing the offer is on first, then whatever else was asked for (once each).
  const requested = [offer.listingOfferedOn, ...offer.requestedListings.filter((item) => item.listingID !== offer.listingOfferedOnID)];
  const other = side === 'sender' ? offer.receiver : offer.sender;
  // The report names a listing of the member reported (the seed took the first requested one, which
  // is the reporter's own when they received the offer); the crate is no listing.
  const reportedListing = (side === 'sender' ? requested : offer.offeredListings).find((item) => item.listingID !== DEFAULT_CRATE.listingID)?.listingID;
  const { chat, inView, jump } = useChatJump();
  const location = useLocation();
  const sent = (location.state as Partial<CounterSent> | null)?.counterSentFor;
  const canCounter = side === 'receiver' && offer.status === 'Pending';
  return (
    <>
      {typeof sent === 'number' && <Notice notice={{ ok: true, message: `Je tegenbod is verstuurd. Ruilaanbieding #${sent} is afgewezen.` }} testId="counter-sent" />}
      <div className={styles.header}>
        {side === 'none' ? (
          <p className={styles.parties}>
            Aanbod van <Party party={offer.sender} /> naar <Party party={offer.receiver} />
          </p>
        ) : (
          <p className={styles.parties}>
            {side === 'sender' ? 'Aanbod naar' : 'Aanbod van'} <Party party={other} />
          </p>
        )}
        <StatusBadge status={offer.status} />
        <p className={styles.date}>Gemaakt op {formatDate(offer.createdAt)}</p>
        {side !== 'none' && (
          <ReportDialog
            reportedId={other.id}
            listingId={reportedListing}
            title={`${other.firstName} ${other.lastName} rapporteren`}
            intro={`Vertel ons wat er niet klopt aan dit aanbod of aan ${other.firstName}. Een beheerder bekijkt je melding.`}
          />
        )}
        {side !== 'none' && <BlockButton member={other} />}
        {/* On a line of its own below the header's row: how the other party answers and completes. */}
        {side !== 'none' && <ReliabilityLine userId={other.id} />}
      </div>
      {side !== 'none' && !inView && (
        <button type="button" className={styles.chatJump} onClick={jump} data-testid="chat-jump">
          Chat met {other.firstName}
        </button>
      )}
      <CounterLinks offer={offer} />
      <div className={styles.panels}>
        <Panel title="Listing aangeboden op" items={requested} testId="panel-requested" />
        {/* The seed's words are the sender's; the receiver reads whose offer it is. */}
        <Panel title={side === 'sender' ? 'Wat jij aanbiedt' : `Wat ${offer.sender.firstName} aanbiedt`} items={offer.offeredListings} testId="panel-offered" />
      </div>
      <OfferMessage message={offer.message} />
      {side === 'none' ? (
        <p className={styles.explain}>Je bekijkt dit aanbod als beheerder: alleen de twee partijen kunnen het beantwoorden en erover chatten.</p>
      ) : (
        <>
          <StatusActions offer={offer} side={side} onCounter={canCounter ? onCounter : undefined} />
          <div ref={chat} className={styles.chatPlace}>
            <Chat offer={offer} side={side} />
          </div>
        </>
      )}
    </>
  );
}

export function OfferDetailPage() {
  const { id = '' } = useParams();
  const valid = /^[1-9]\d{0,14}$/.test(id);
  const offer = useQuery({
    ...apiQuery(tradeApi.get, { params: { id } }),
    enabled: valid,
    refetchInterval: (query) => (query.state.data && !isClosed(query.state.data.status) && query.state.data.status !== 'Completed' ? REFRESH_MS : false),
    refetchOnWindowFocus: true,
  });
  useEffect(() => {
    if (offer.isError) console.warn('Aanbieding niet gevonden.', offer.error);
  }, [offer.isError, offer.error]);
  const title = valid ? `Ruilaanbieding #${id}` : 'Ruilaanbieding';
  if (!valid)
    return (
      <Page title={title}>
        <ErrorMessage message="Niet gevonden." />
      </Page>
    );
  if (offer.isPending)
    return (
      <Page title={title}>
        <Spinner label="Laden..." />
      </Page>
    );
  if (offer.isError) {
    const status = offer.error instanceof ApiError ? offer.error.status : 0;
    // Not there: 'Niet gevonden.'; someone else's: the server says so; an outage can be retried.
    const message = status === 404 || status === 400 ? 'Niet gevonden.' : status === 403 ? offer.error.message : failureMessage(offer.error);
    const retry = status === 0 || status >= 500;
    return (
      <Page title={title}>
        <ErrorMessage message={message} onRetry={retry ? () => void offer.refetch() : undefined} data-testid="offer-error" />
        <Link to="/dashboard/offers">Naar je ruilaanbiedingen</Link>
      </Page>
    );
  }
  return (
    <Page title={isChainOffer(offer.data) ? `Ruilketen #${id}` : title}>
      <OfferView key={offer.data.id} offer={offer.data} />
    </Page>
  );
}
