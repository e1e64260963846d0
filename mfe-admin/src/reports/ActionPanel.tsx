import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { moderationApi, type Report, type ReportStatus } from '@ruilplein/contracts/browser';
import { buttonClass, request, useSession } from '@ruilplein/ui';
import * as styles from '../common/admin.module.css';
import type { NoticeState } from '../common/Notice.tsx';
import { failed } from '../common/Notice.tsx';
import { BanPanel } from '../users/BanPanel.tsx';

/**
 * 'Actie uitvoeren' on one report (spec 2 §2, §4): mark In behandeling, warn with a message (then
 * Gewaarschuwd), ban with a reason and an optional date (then Geband), or 'Geen actie nodig'
 * (Afgehandeld). The warning needs a message and the ban a reason (spec 2 §5).
 */
export function ActionPanel({ report, onDone, onClose }: { report: Report; onDone: (notice: NoticeState) => void; onClose: () => void }) {
  const { user: admin } = useSession();
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [banning, setBanning] = useState(false);
  const messageId = useId();
  const status = useMutation({
    mutationFn: (next: ReportStatus) => request(moderationApi.setReportStatus, { params: { id: report.id }, body: next }),
    onSuccess: (r) => onDone({ ok: true, text: `Status: ${r.status}.` }),
    onError: (err) => onDone({ ok: false, text: failed('Status wijzigen mislukt', err) }),
  });
  const warn = useMutation({
    mutationFn: () => request(moderationApi.createWarning, { body: { userID: report.reported.id, adminID: admin?.id, message, reportID: report.id } }),
    onSuccess: () => onDone({ ok: true, text: 'Waarschuwing verstuurd.' }),
    onError: (err) => onDone({ ok: false, text: failed('Waarschuwen mislukt', err) }),
  });
  const submitWarning = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return setProblem('Een waarschuwing heeft een bericht nodig.');
    setProblem(null);
    warn.mutate();
  };
  const busy = status.isPending || warn.isPending;

  return (
    <section className={styles.panel} aria-label="Actie uitvoeren">
      <h2>Actie uitvoeren</h2>
      <p>
        Melding over <strong>{report.reported.firstName} {report.reported.lastName}</strong>: {report.reason}
      </p>
      <div className={styles.panelActions}>
        <button type="button" className={buttonClass('secondary')} disabled={busy || report.status === 'In behandeling'} onClick={() => status.mutate('In behandeling')}>
          Markeer als In behandeling
        </button>
        <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={() => status.mutate('Afgehandeld')}>
          Geen actie nodig
        </button>
        <button type="button" className={buttonClass('link')} onClick={onClose}>
          Sluiten
        </button>
      </div>
      <form onSubmit={submitWarning} className={styles.panel}>
        <label className={styles.field} htmlFor={messageId}>
          Waarschuwing
          <textarea id={messageId} rows={3} maxLength={1000} value={message} onChange={(e) => setMessage(e.target.value)} aria-invalid={!!problem} />
        </label>
        {problem && <p role="alert">{problem}</p>}
        <div className={styles.panelActions}>
          <button type="submit" className={buttonClass()} disabled={busy}>
            {warn.isPending ? 'Bezig...' : 'Waarschuwen'}
          </button>
        </div>
      </form>
      {banning ? (
        <BanPanel
          user={report.reported}
          reportId={report.id}
          requireReason
          onCancel={() => setBanning(false)}
          onDone={({ ok, error }) => onDone(ok ? { ok: true, text: 'Gebruiker geband.' } : { ok: false, text: failed('Ban mislukt', error) })}
        />
      ) : (
        <div className={styles.panelActions}>
          <button type="button" className={buttonClass()} onClick={() => setBanning(true)}>
            Gebruiker bannen…
          </button>
        </div>
      )}
    </section>
  );
}
