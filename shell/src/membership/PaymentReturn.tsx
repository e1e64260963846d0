import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PAYMENT_ID_STORAGE_KEY, PAYMENT_MESSAGES, paymentApi, SUBSCRIPTION_INTERVAL } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, buttonClass, Page, request, Spinner, useSession } from '@ruilplein/ui';
import * as styles from './membership.module.css';
import { reloadUser } from './session.ts';

/** A payment the member came back from before paying is asked again after these waits (ms) before it counts as not done. */
const OPEN_RETRIES = [1000, 2000, 3000];
const stillOpen = (status: string | undefined) => status === 'open' || status === 'pending';

type State = { step: 'loading' } | { step: 'subscribing' } | { step: 'active' } | { step: 'failed'; message: string };

/**
 * The payment's return screen (spec 1 §2, §4, §8): loading, then subscribing when the payment's
 * status is 'paid' (in any case), then active: the stored payment id goes and the member's record
 * is read again. Any failure ends in failed with the spec's message. Server state through the
 * query helpers (issue 27): the status is asked again with `refetchInterval` while it is open,
 * and the subscription is made by a query that runs once the payment is paid (create-subscription
 * makes one subscription per paid payment however often it is called, so StrictMode's second
 * render and a reload are harmless).
 */
export function PaymentReturn() {
  const session = useSession();
  const [paymentId] = useState(() => localStorage.getItem(PAYMENT_ID_STORAGE_KEY));
  const statusQuery = apiQuery(paymentApi.status, { query: { id: paymentId ?? '' } });
  const status = useQuery({
    ...statusQuery,
    enabled: paymentId !== null,
    retry: false,
    staleTime: 0,
    refetchInterval: (query) => {
      const asked = query.state.dataUpdateCount;
      return stillOpen(query.state.data?.status.toLowerCase()) && asked <= OPEN_RETRIES.length ? OPEN_RETRIES[asked - 1]! : false;
    },
  });
  const current = status.data?.status.toLowerCase();
  // How often the status was answered: each answer renders again, so this is current.
  const answers = useQueryClient().getQueryState(statusQuery.queryKey)?.dataUpdateCount ?? 0;
  const waiting = stillOpen(current) && answers <= OPEN_RETRIES.length;
  const paid = current === 'paid';
  const subscription = useQuery({
    queryKey: ['payment-return', 'subscription', paymentId],
    queryFn: async () => {
      await request(paymentApi.createSubscription, { body: SUBSCRIPTION_INTERVAL });
      localStorage.removeItem(PAYMENT_ID_STORAGE_KEY);
      await reloadUser(session).catch((err: unknown) => console.warn('Gebruiker opnieuw laden mislukt', err));
      return true;
    },
    enabled: paid,
    retry: false,
    staleTime: Infinity,
  });

  const state: State = (() => {
    if (paymentId === null) return { step: 'failed', message: PAYMENT_MESSAGES.noPaymentId };
    if (status.isError) return { step: 'failed', message: PAYMENT_MESSAGES.statusUnavailable };
    if (status.isPending || waiting) return { step: 'loading' };
    if (!paid) return { step: 'failed', message: PAYMENT_MESSAGES.notPaid };
    if (subscription.isError) {
      const err = subscription.error;
      return { step: 'failed', message: err instanceof ApiError && err.status !== 0 ? `${PAYMENT_MESSAGES.subscriptionFailed}${err.message}` : PAYMENT_MESSAGES.activationError };
    }
    return subscription.isSuccess ? { step: 'active' } : { step: 'subscribing' };
  })();

  return (
    <Page title="Betaling">
      {state.step === 'loading' && <Spinner label="Betaling controleren…" />}
      {state.step === 'subscribing' && <Spinner label="Abonnement activeren…" />}
      {state.step === 'active' && (
        <>
          <p role="status" className={styles.ok}>
            {PAYMENT_MESSAGES.activated}
          </p>
          <div className={styles.actions}>
            <Link to="/dashboard" className={buttonClass()}>
              Naar je dashboard
            </Link>
            <Link to="/dashboard/upgrade/bedankt" className={buttonClass('secondary')}>
              Verder
            </Link>
          </div>
        </>
      )}
      {state.step === 'failed' && (
        <>
          <p role="alert" className={styles.failed}>
            {state.message}
          </p>
          <div className={styles.actions}>
            <Link to="/dashboard" className={buttonClass()}>
              Naar je dashboard
            </Link>
          </div>
        </>
      )}
    </Page>
  );
}
