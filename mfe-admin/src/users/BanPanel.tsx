import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { moderationApi } from '@ruilplein/contracts/browser';
import { buttonClass, request, useConfirm, useSession } from '@ruilplein/ui';
import * as styles from '../common/admin.module.css';
import { longDate, tomorrow } from '../common/format.ts';

/**
 * The 'Ban' panel (spec 2 §2): a reason and an optional end date. The users list has no client
 * check (spec 2 §5); the server still wants a reason and says so in Dutch. 'Ban' asks first
 * (issue 27): who, until when, and what the ban takes away.
 */
export function BanPanel({ user, reportId, requireReason, onDone, onCancel }: {
  user: { id: string; firstName: string; lastName: string };
  reportId?: string;
  requireReason?: boolean;
  onDone: (result: { ok: boolean; error?: unknown }) => void;
  onCancel: () => void;
}) {
  const { user: admin } = useSession();
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [dialog, confirm] = useConfirm();
  const reasonId = useId();
  const untilId = useId();
  const ban = useMutation({
    mutationFn: () => request(moderationApi.createBan, { body: { userID: user.id, issuedBy: admin?.id, reason, expiresAt: until || null, ...(reportId && { reportID: reportId }) } }),
    onSuccess: () => onDone({ ok: true }),
    onError: (error) => onDone({ ok: false, error }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (requireReason && !reason.trim()) return setProblem('Geef een reden voor de ban op.');
    setProblem(null);
    const name = `${user.firstName} ${user.lastName}`;
    const question = `Weet je zeker dat je ${name} ${until ? `tot ${longDate(until)}` : 'permanent'} wilt bannen? Alle listings van ${name} gaan offline en open ruilaanbiedingen worden geannuleerd.`;
    if (await confirm(question, { confirmLabel: 'Bannen', danger: true })) ban.mutate();
  };
  return (
    <>
      {dialog}
      <form className={styles.panel} onSubmit={(event) => void submit(event)} aria-label={`${user.firstName} ${user.lastName} bannen`}>
        <h2>
          {user.firstName} {user.lastName} bannen
        </h2>
        <label className={styles.field} htmlFor={reasonId}>
          Reden
          <textarea id={reasonId} value={reason} rows={3} maxLength={1000} onChange={(e) => setReason(e.target.value)} aria-invalid={!!problem} />
        </label>
        <label className={styles.field} htmlFor={untilId}>
          Geblokkeerd tot (leeg: permanent)
          <input id={untilId} type="date" min={tomorrow()} value={until} onChange={(e) => setUntil(e.target.value)} />
        </label>
        {problem && <p role="alert">{problem}</p>}
        <div className={styles.panelActions}>
          <button type="submit" className={buttonClass()} disabled={ban.isPending}>
            {ban.isPending ? 'Bezig...' : 'Ban'}
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
            Annuleren
          </button>
        </div>
      </form>
    </>
  );
}
