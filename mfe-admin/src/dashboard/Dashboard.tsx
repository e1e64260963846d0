import { moderationApi } from '@ruilplein/contracts/browser';
import { EmptyState, Page, Spinner, useApi } from '@ruilplein/ui';
import * as styles from '../common/admin.module.css';
import { dateTime } from '../common/format.ts';

/** /admin (spec 2 §2): users, active listings and open reports, and the latest reports. */
export function Dashboard() {
  const stats = useApi(moderationApi.stats, {}, { staleTime: 0 });
  if (stats.isError) console.warn('Kon admin statistieken niet ophalen', stats.error);
  return (
    <div className={styles.page}>
      <Page title="Beheer">
        {stats.isPending ? (
          <Spinner label="Statistieken laden…" />
        ) : stats.isError ? (
          <p role="alert">Geen statistieken beschikbaar.</p>
        ) : (
          <>
            <ul className={styles.cards} aria-label="Statistieken">
              {[
                ['Gebruikers', stats.data.totalUsers],
                ['Actieve listings', stats.data.activeListings],
                ['Open meldingen', stats.data.openReports],
              ].map(([label, value]) => (
                <li key={label} className={styles.card}>
                  <p className={styles.cardLabel}>{label}</p>
                  <p className={styles.cardValue} data-testid={`stat-${label}`}>
                    {value}
                  </p>
                </li>
              ))}
            </ul>
            <h2>Laatste meldingen</h2>
            {stats.data.latestReports.length === 0 ? (
              <EmptyState>Er zijn nog geen meldingen.</EmptyState>
            ) : (
              <ul className={styles.list} data-testid="latest-reports">
                {stats.data.latestReports.map((r) => (
                  <li key={r.id}>
                    <strong>{r.reporterName}</strong> meldde <strong>{r.reportedName}</strong>: {r.reason}
                    <br />
                    <span className={styles.meta}>{dateTime(r.createdAt)}</span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Page>
    </div>
  );
}
