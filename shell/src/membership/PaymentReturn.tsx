import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PAYMENT_ID_STORAGE_KEY, PAYMENT_MESSAGES, paymentApi, SUBSCRIPTION_INTERVAL } from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, Page, request, Spinner, useSession } from '@ruilplein/ui';
import * as styles from './membership.module.css';
import { reloadUser } from './session.ts';

type State = { step: 'loading' } | { step: 'subscribing' } | { step: 'active' } | { step: 'failed'; message: string };

/** A payment the member came back from before paying is asked again this often (ms) before it counts as not done. */
const OPEN_RETRIES = [1000, 2000, 3000];

/**
 * The payment's return screen (spec 1 §2, §4, §8): loading, then subscribing when the payment's
 * status is 'paid' (in any case), then active: the stored payment id goes and the member's record
 * is read again. Any failure ends in failed with the spec's message.
 */
export function PaymentReturn() {
  const session = useSession();
  const [state, setState] = useState<State>({ step: 'loading' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // once, also under StrictMode's second effect
    started.current = true;
    void (async () => {
      const paymentId = localStorage.getItem(PAYMENT_ID_STORAGE_KEY);
      if (!paymentId) return setState({ step: 'failed', message: PAYMENT_MESSAGES.noPaymentId });
      let status: string;
      try {
        status = (await request(paymentApi.status, { query: { id: paymentId } })).status;
        for (const wait of OPEN_RETRIES) {
          if (status.toLowerCase() !== 'open' && status.toLowerCase() !== 'pending') break;
          await new Promise((resolve) => setTimeout(resolve, wait));
          status = (await request(paymentApi.status, { query: { id: paymentId } })).status;
        }
      } catch {
        return setState({ step: 'failed', message: PAYMENT_MESSAGES.statusUnavailable });
      }
      if (status.toLowerCase() !== 'paid') return setState({ step: 'failed', message: PAYMENT_MESSAGES.notPaid });
      setState({ step: 'subscribing' });
      try {
        await request(paymentApi.createSubscription, { body: SUBSCRIPTION_INTERVAL });
      } catch (err) {
        const message = err instanceof ApiError && err.status !== 0 ? `${PAYMENT_MESSAGES.subscriptionFailed}${err.message}` : PAYMENT_MESSAGES.activationError;
        return setState({ step: 'failed', message });
      }
      localStorage.removeItem(PAYMENT_ID_STORAGE_KEY);
      await reloadUser(session).catch((err: unknown) => console.warn('Gebruiker opnieuw laden mislukt', err));
      setState({ step: 'active' });
    })();
  }, [session]);

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
