import { Link, Navigate, useLocation } from 'react-router-dom';
import { buttonClass, formatDate } from '@ruilplein/ui';
import { AuthPage } from './AuthLayout.tsx';
import * as styles from './Suspended.module.css';

/** What the dashboard passes along when the account status says the member is suspended (its seed fields). */
export interface SuspendedState {
  reason: string;
  unblockDate?: string | null;
}

/** /geblokkeerd (spec 1 §2): reason and end date from navigation state; without a reason, /login. */
export function Suspended() {
  const state = useLocation().state as Partial<SuspendedState> | null;
  if (!state?.reason) return <Navigate to="/login" replace />;
  return (
    <AuthPage title="Je account is geblokkeerd">
      <p className={styles.reason}>{state.reason === 'ban' ? 'Je bent geblokkeerd door een admin.' : 'Je hebt te veel waarschuwingen ontvangen in korte tijd.'}</p>
      <p>
        Geblokkeerd tot: <strong data-testid="unblock-date">{formatDate(state.unblockDate)}</strong>
      </p>
      <Link to="/" className={buttonClass()}>
        Terug naar de homepage
      </Link>
    </AuthPage>
  );
}
