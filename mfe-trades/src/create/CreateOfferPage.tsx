// /dashboard/listing/:id/offer (spec 2 §2 'Trade offer creation'): the owner's inventory and one's
// own, the two halves of the offer, an optional message and 'Bevestig Aanbod'; or the notice that
// today's offers are used up.
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { amsterdamDay, listingApi, OFFER_DAILY_LIMIT, OFFER_MESSAGES, tradeApi, type Listing } from '@ruilplein/contracts/browser';
import { ApiError, ErrorMessage, failureMessage, Page, Spinner, useApi, useSession } from '@ruilplein/ui';
import { OfferBuilder } from './OfferBuilder.tsx';
import * as styles from './CreateOfferPage.module.css';

const TITLE = 'Ruilaanbod doen';

/** The notice that replaces the form once a member without Premium made today's offers (spec 2 §6). */
function LimitNotice() {
  return (
    <div className={styles.limit} data-testid="offer-limit" role="status">
      <p>Je hebt je dagelijkse limiet van {OFFER_DAILY_LIMIT} ruilverzoeken bereikt.</p>
      <Link to="/dashboard/upgrade">Word Premium om onbeperkt te kunnen ruilen</Link>
    </div>
  );
}

/**
 * Whether the member may make another offer today. The trade service's count says so (it knows
 * Premium from its own records, and it enforces the limit); until it answers, or when it cannot,
 * the session's figures decide, as the listing page does. The count is the session's own query
 * (same route and input, so one cache entry): asking it afresh here updates what the listing page
 * reads, without copying.
 */
function useOfferAllowance(userId: string) {
  const { isPremium, isAdmin, amountOfTrades } = useSession();
  const count = useApi(tradeApi.count, { query: { userId, date: amsterdamDay() } }, { staleTime: 0 });
  const known = count.data;
  useEffect(() => {
    if (count.isError) console.warn('Kan aantal trade offers niet ophalen', count.error);
  }, [count.isError, count.error]);
  const limited = known ? known.limit !== null && known.count >= known.limit : !isPremium && !isAdmin && amountOfTrades >= OFFER_DAILY_LIMIT;
  return { pending: count.isPending, limited, refetch: () => void count.refetch() };
}

function OfferScreen({ listing, userId }: { listing: Listing; userId: string }) {
  const owner = listing.user;
  const allowance = useOfferAllowance(userId);
  const mine = useApi(listingApi.inventory, { params: { userId } });
  const theirs = useApi(listingApi.inventory, { params: { userId: owner.id } });
  const title = `Ruilaanbod aan ${owner.firstName} ${owner.lastName}`;
  useEffect(() => {
    if (mine.isError || theirs.isError) console.warn('Inventaris laden mislukt', mine.error ?? theirs.error);
  }, [mine.isError, theirs.isError, mine.error, theirs.error]);

  let body;
  if (allowance.pending || mine.isPending || theirs.isPending) body = <Spinner label="Laden..." />;
  else if (allowance.limited) body = <LimitNotice />;
  else if (mine.isError || theirs.isError)
    body = (
      <ErrorMessage
        message={`De inventaris kon niet worden geladen. ${failureMessage(mine.error ?? theirs.error)}`}
        onRetry={() => {
          if (mine.isError) void mine.refetch();
          if (theirs.isError) void theirs.refetch();
        }}
      />
    );
  else body = <OfferBuilder purpose={{ kind: 'create', listing, onLimitReached: allowance.refetch }} userId={userId} mine={mine.data} theirs={theirs.data} />;
  return <Page title={title}>{body}</Page>;
}

export function CreateOfferPage() {
  const { id = '' } = useParams();
  const { user } = useSession();
  const listing = useApi(listingApi.get, { params: { id } }, { enabled: Boolean(id) });
  if (listing.isPending)
    return (
      <Page title={TITLE}>
        <Spinner label="Laden..." />
      </Page>
    );
  if (listing.isError) {
    // Gone, never there, or not for this member: all the same to them.
    const missing = listing.error instanceof ApiError && [400, 403, 404].includes(listing.error.status);
    return (
      <Page title={TITLE}>
        {missing ? <ErrorMessage message="Listing niet gevonden." /> : <ErrorMessage message={failureMessage(listing.error)} onRetry={() => void listing.refetch()} />}
      </Page>
    );
  }
  if (!user) return null; // the shell shows the dashboard to members only
  if (listing.data.user.id === user.id)
    return (
      <Page title={TITLE}>
        <ErrorMessage message={OFFER_MESSAGES.ownListing} />
        <Link to={`/dashboard/listing/${encodeURIComponent(listing.data.id)}`}>Terug naar je listing</Link>
      </Page>
    );
  // Traded or taken offline: the trade service would refuse it.
  if (!listing.data.isActive)
    return (
      <Page title={TITLE}>
        <ErrorMessage message={OFFER_MESSAGES.receiverNotOwner} />
      </Page>
    );
  return <OfferScreen listing={listing.data} userId={user.id} />;
}
