// A moderator's warning as a notice on the dashboard (issue 27), until the member marks it read:
// the member's newest notifications (the list route, so the hub's refreshes reach it) filtered to
// the unread warnings; 'Gelezen' marks one read like opening it in the bell would.
import { Link } from 'react-router-dom';
import { TriangleAlert } from 'lucide-react';
import { NOTIFICATION_PAGE_MAX, notificationApi } from '@ruilplein/contracts/browser';
import { buttonClass, useApi } from '@ruilplein/ui';
import { useMarkRead } from './items.tsx';
import * as styles from './Notifications.module.css';

const dated = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' });

export function WarningNotice() {
  // The newest page at its largest: a warning further back than that has long been seen in the bell.
  const latest = useApi(notificationApi.list, { query: { take: String(NOTIFICATION_PAGE_MAX) } });
  const { one } = useMarkRead();
  const warnings = (latest.data ?? []).filter((n) => n.kind === 'warning' && !n.readAt);
  if (warnings.length === 0) return null;
  return (
    <section className={styles.warningNotice} aria-labelledby="warning-notice" data-testid="warning-notice">
      <h2 id="warning-notice">
        <TriangleAlert aria-hidden="true" size={20} /> {warnings.length === 1 ? 'Je hebt een waarschuwing gekregen' : `Je hebt ${warnings.length} waarschuwingen gekregen`}
      </h2>
      <ul>
        {warnings.map((warning) => (
          <li key={warning.id} data-testid="warning">
            <p>
              <time dateTime={warning.createdAt}>{dated.format(new Date(warning.createdAt))}</time>: {warning.body || warning.title}
            </p>
            <div className={styles.warningActions}>
              <Link to="/ruilregels">Lees de ruilregels</Link>
              <button type="button" className={buttonClass('secondary')} disabled={one.isPending} onClick={() => one.mutate(warning.id)}>
                Gelezen
              </button>
            </div>
          </li>
        ))}
      </ul>
      {one.isError && (
        <p role="alert" className={styles.problem}>
          Markeren als gelezen mislukt. Probeer het opnieuw.
        </p>
      )}
    </section>
  );
}
