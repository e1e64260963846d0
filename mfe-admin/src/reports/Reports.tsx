import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { moderationApi, REPORT_PAGE_SIZE, type Report, type ReportFilter } from '@ruilplein/contracts/browser';
import { apiKey, buttonClass, EmptyState, ErrorMessage, failureMessage, Page, Spinner, useApi } from '@ruilplein/ui';
import * as styles from '../common/admin.module.css';
import { dateTime } from '../common/format.ts';
import { Notice, type NoticeState } from '../common/Notice.tsx';
import { ActionPanel } from './ActionPanel.tsx';

const FILTERS: { label: string; value: ReportFilter }[] = [
  { label: 'Openstaand', value: 'open' },
  { label: 'Afgehandeld', value: 'closed' },
  { label: 'Alles', value: 'all' },
];

const Person = ({ person }: { person: Report['reporter'] }) => (
  <Link to={`/dashboard/user/${person.id}`}>
    {person.firstName} {person.lastName}
  </Link>
);

/** /admin/reports, 'Meldingen beheren' (spec 2 §2): filter, table with profile links, and 'Actie uitvoeren'. */
export function Reports() {
  const queries = useQueryClient();
  const [filter, setFilter] = useState<ReportFilter>('open');
  const [skip, setSkip] = useState(0);
  const [selected, setSelected] = useState<Report | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const reports = useApi(moderationApi.listReports, { query: { skip, take: REPORT_PAGE_SIZE, status: filter } }, { staleTime: 0 });
  if (reports.isError) console.warn('Kon meldingen niet ophalen', reports.error);

  const done = (result: NoticeState) => {
    setNotice(result);
    if (result.ok) setSelected(null);
    void queries.invalidateQueries({ queryKey: apiKey(moderationApi.listReports).slice(0, 2) });
    void queries.invalidateQueries({ queryKey: apiKey(moderationApi.stats) });
  };

  return (
    <div className={styles.page}>
      <Page title="Meldingen beheren">
        <Notice notice={notice} />
        <div className={styles.toolbar}>
          <div className={styles.filters} role="group" aria-label="Filter">
            {FILTERS.map((f) => (
              <button
                key={f.value}
                type="button"
                className={styles.filter}
                aria-pressed={filter === f.value}
                onClick={() => {
                  setFilter(f.value);
                  setSkip(0);
                }}
              >
                {f.label}
              </button>
            ))}
          </div>
        </div>
        {selected && <ActionPanel key={selected.id} report={selected} onDone={done} onClose={() => setSelected(null)} />}
        {reports.isPending ? (
          <Spinner label="Meldingen laden…" />
        ) : reports.isError ? (
          <ErrorMessage message={failureMessage(reports.error)} onRetry={() => void reports.refetch()} />
        ) : reports.data.length === 0 ? (
          <EmptyState>Geen meldingen.</EmptyState>
        ) : (
          <>
            <div className={styles.tableWrap}>
              <table className={styles.table} data-testid="reports">
                <thead>
                  <tr>
                    <th scope="col">Datum</th>
                    <th scope="col">Reden</th>
                    <th scope="col">Melder</th>
                    <th scope="col">Gemelde</th>
                    <th scope="col">Status</th>
                    <th scope="col">Acties</th>
                  </tr>
                </thead>
                <tbody>
                  {reports.data.map((report) => (
                    <tr key={report.id} className={selected?.id === report.id ? styles.selected : undefined}>
                      <td>{dateTime(report.createdAt)}</td>
                      <td>
                        {report.category && (
                          <span className={styles.category} data-testid="report-category">
                            {report.category}
                          </span>
                        )}
                        {report.reason}
                      </td>
                      <td>
                        <Person person={report.reporter} />
                      </td>
                      <td>
                        <Person person={report.reported} />
                        {report.reportedListingID && (
                          <>
                            {' '}
                            (<Link to={`/dashboard/listing/${report.reportedListingID}`}>listing</Link>)
                          </>
                        )}
                      </td>
                      <td>{report.status}</td>
                      <td>
                        <button type="button" className={buttonClass('secondary')} onClick={() => setSelected(report)} aria-label={`Actie uitvoeren: melding over ${report.reported.firstName} ${report.reported.lastName}`}>
                          Actie uitvoeren
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className={styles.pager}>
              <button type="button" className={buttonClass('secondary')} disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - REPORT_PAGE_SIZE))}>
                Vorige
              </button>
              <button type="button" className={buttonClass('secondary')} disabled={reports.data.length < REPORT_PAGE_SIZE} onClick={() => setSkip(skip + REPORT_PAGE_SIZE)}>
                Volgende
              </button>
            </div>
          </>
        )}
      </Page>
    </div>
  );
}
