import { useEffect, useEffectEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PAYMENT_MESSAGES, paymentApi, premiumAfterCancel, userApi } from '@ruilplein/contracts/browser';
import { ApiError, apiKey, buttonClass, ErrorMessage, failureMessage, formatDate, Page, request, Spinner, useApi, useConfirm, useSession } from '@ruilplein/ui';
import * as styles from './membership.module.css';
import { PremiumBadge } from './PremiumBadge.tsx';
import { reloadUser } from './session.ts';

/**
 * /dashboard/membership (spec 1 §2): Standard or Premium with the end date, the verification status,
 * the way to Premium, and cancelling with confirmation; Premium stays to the end of the period.
 * Server state through the query helpers (issue 27): the records as queries, cancelling as a
 * mutation that reads them again.
 */
export function Membership() {
  const session = useSession();
  const queries = useQueryClient();
  const me = useApi(userApi.my, {}, { staleTime: 0 });
  const mine = useApi(paymentApi.mine, {}, { staleTime: 0 });
  const [dialog, confirm] = useConfirm();
  // The record as the server has it now: Premium may have started or ended since the session began.
  // An effect event: the session's setUser is remade with every change of the session.
  const keepUser = useEffectEvent((user: NonNullable<typeof me.data>) => session.setUser(user));
  useEffect(() => {
    if (me.data) keepUser(me.data);
  }, [me.data]);
  const cancelling = useMutation({
    mutationFn: () => request(paymentApi.cancelSubscription),
    // As the seed reloads the page: the membership as it is now.
    onSettled: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: apiKey(userApi.my) }),
        queries.invalidateQueries({ queryKey: apiKey(paymentApi.mine) }),
        reloadUser(session).catch(() => {}),
      ]),
  });

  if (me.isPending || mine.isPending) return <Spinner label="Lidmaatschap laden…" />;
  if (me.isError) return <ErrorMessage message={failureMessage(me.error)} onRetry={() => void me.refetch()} />;
  const subscription = mine.data ?? { status: 'none' as const, subscriptionEndsAt: null };
  const endsAt = subscription.subscriptionEndsAt ?? me.data.subscriptionEndsAt ?? null;

  const cancel = async () => {
    if (!(await confirm(`Weet je zeker dat je je Premium-abonnement wilt opzeggen? Je houdt Premium tot ${formatDate(endsAt)}.`, { confirmLabel: 'Opzeggen', danger: true }))) return;
    cancelling.mutate();
  };
  const busy = cancelling.isPending;
  // The seed's words, then what they mean (issue 27): Premium stays until the end date, and after it.
  const notice = cancelling.isSuccess
    ? { ok: true, text: `${cancelling.data.message || PAYMENT_MESSAGES.cancelled} ${premiumAfterCancel(formatDate(cancelling.data.subscriptionEndsAt ?? endsAt))}` }
    : cancelling.isError
      ? {
          ok: false,
          text:
            cancelling.error instanceof ApiError && cancelling.error.status !== 0
              ? `${PAYMENT_MESSAGES.cancelFailed}${cancelling.error.message || 'Onbekende fout'}`
              : PAYMENT_MESSAGES.cancelError,
        }
      : null;

  return (
    <Page title="Lidmaatschap en verificatie">
      {dialog}
      {notice && (
        <p role={notice.ok ? 'status' : 'alert'} className={notice.ok ? styles.ok : styles.failed}>
          {notice.text}
        </p>
      )}
      <section className={session.isPremium ? styles.premiumCard : styles.card} aria-labelledby="membership-kind">
        <h2 id="membership-kind">Lidmaatschap</h2>
        {session.isPremium ? (
          <>
            <p>
              <PremiumBadge /> Je bent Premium{endsAt ? <> tot <strong data-testid="premium-until">{formatDate(endsAt)}</strong></> : null}.
            </p>
            {subscription.status === 'cancelled' && (
              <p data-testid="after-cancel">
                Je abonnement is opgezegd: het wordt niet meer verlengd. {endsAt ? premiumAfterCancel(formatDate(endsAt)) : null}
              </p>
            )}
            {subscription.status === 'active' && <p>Je abonnement wordt elke maand automatisch verlengd. Je kunt altijd opzeggen.</p>}
            {subscription.status === 'active' && (
              <div className={styles.actions}>
                <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={() => void cancel()}>
                  {busy ? 'Bezig...' : 'Abonnement opzeggen'}
                </button>
              </div>
            )}
          </>
        ) : (
          <>
            <p>
              Je hebt een <strong>Standaard</strong> lidmaatschap: tot 5 actieve listings en 2 ruilverzoeken per dag.
            </p>
            <div className={styles.actions}>
              <Link to="/dashboard/upgrade" className={buttonClass()}>
                Word Premium
              </Link>
            </div>
          </>
        )}
      </section>
      <section className={styles.card} aria-labelledby="verification">
        <h2 id="verification">Verificatie</h2>
        {me.data.activated ? (
          <p>Je e-mailadres is bevestigd.</p>
        ) : (
          <p>
            Je e-mailadres is nog niet bevestigd. <Link to="/verify-email">Bevestig je e-mailadres</Link>
          </p>
        )}
      </section>
    </Page>
  );
}
