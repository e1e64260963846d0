import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { formatEuros, PAYMENT_ID_STORAGE_KEY, PAYMENT_MESSAGES, paymentApi, PREMIUM_PRICE_CENTS } from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, Page, request, useSession } from '@ruilplein/ui';
import * as styles from './membership.module.css';

const BENEFITS = [
  'Onbeperkt actieve listings (standaard: 5)',
  'Onbeperkt ruilverzoeken, zonder wachttijd (standaard: 2 per dag)',
  'Een premium-badge bij je listings',
  'Exclusieve categorieën, zoals vinyl, smartwatches en gitaren',
  'Voorrang bij trending items in je buurt',
  'Nieuwe listings 6 uur eerder zien',
];

/** /dashboard/upgrade (spec 1 §2, §8): what Premium gives, the price, and the payment's start. */
export function Upgrade() {
  const { token, isPremium } = useSession();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  // A mutation (issue 27): busy from the click until the browser leaves for the checkout.
  const starting = useMutation({
    mutationFn: () => request(paymentApi.startUpgradeFirst),
    onSuccess: ({ paymentId, checkoutUrl }) => {
      localStorage.setItem(PAYMENT_ID_STORAGE_KEY, paymentId);
      window.location.assign(checkoutUrl);
      // Pending until the page is gone: no second click meanwhile.
      return new Promise<never>(() => {});
    },
    onError: (err) => {
      if (!(err instanceof ApiError) || err.status === 0) return setProblem(PAYMENT_MESSAGES.somethingWrong);
      setProblem(err.status === 401 ? PAYMENT_MESSAGES.unauthorized : `${PAYMENT_MESSAGES.startFailed}${err.message || err.status}`);
    },
  });
  const busy = starting.isPending;

  const start = () => {
    if (!token) return setProblem(PAYMENT_MESSAGES.notLoggedIn);
    setProblem(null);
    starting.mutate();
  };

  return (
    <Page title="Word Premium">
      <section className={styles.premiumCard} aria-labelledby="premium-benefits">
        <h2 id="premium-benefits">Dit krijg je met Premium</h2>
        <ul className={styles.benefits}>
          {BENEFITS.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
        <p className={styles.price}>{formatEuros(PREMIUM_PRICE_CENTS)} per maand</p>
        <p>Elke maand automatisch verlengd, altijd opzegbaar. Je betaalt veilig via onze betaalpartner.</p>
        {isPremium ? (
          <p>
            Je bent al Premium. <Link to="/dashboard/membership">Bekijk je lidmaatschap</Link>
          </p>
        ) : (
          <div className={styles.actions}>
            <button type="button" className={buttonClass()} disabled={busy} onClick={start}>
              {busy ? 'Bezig...' : `Betaal ${formatEuros(PREMIUM_PRICE_CENTS)} en word Premium`}
            </button>
          </div>
        )}
        {problem && (
          <p role="alert" className={styles.failed}>
            {problem}
          </p>
        )}
      </section>
      <button type="button" className={buttonClass('secondary')} onClick={() => navigate(-1)}>
        Terug
      </button>
    </Page>
  );
}
