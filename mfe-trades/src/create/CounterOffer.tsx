// 'Tegenbod doen' (issue 24): the offer builder on a received Pending offer, its items chosen with
// the roles swapped, sent to the counter route. Shown on the offer's page in place of the offer.
import { useEffect } from 'react';
import { listingApi, type Offer } from '@ruilplein/contracts/browser';
import { buttonClass, ErrorMessage, failureMessage, Spinner, useApi } from '@ruilplein/ui';
import { OfferBuilder } from './OfferBuilder.tsx';
import * as styles from './CreateOfferPage.module.css';

export function CounterOffer({ offer, userId, onClose }: { offer: Offer; userId: string; onClose: () => void }) {
  const mine = useApi(listingApi.inventory, { params: { userId } });
  const theirs = useApi(listingApi.inventory, { params: { userId: offer.senderID } });
  useEffect(() => {
    if (mine.isError || theirs.isError) console.warn('Inventaris laden mislukt', mine.error ?? theirs.error);
  }, [mine.isError, theirs.isError, mine.error, theirs.error]);

  let body;
  if (mine.isPending || theirs.isPending) body = <Spinner label="Laden..." />;
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
  else body = <OfferBuilder purpose={{ kind: 'counter', offer }} userId={userId} mine={mine.data} theirs={theirs.data} />;
  return (
    <section aria-labelledby="counter-title" data-testid="counter-offer">
      <h2 id="counter-title" className={styles.counterTitle}>
        Tegenbod aan {offer.sender.firstName} {offer.sender.lastName}
      </h2>
      {body}
      <p>
        <button type="button" className={buttonClass('secondary')} onClick={onClose}>
          Terug naar het aanbod
        </button>
      </p>
    </section>
  );
}
