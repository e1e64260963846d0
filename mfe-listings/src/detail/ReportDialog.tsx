import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { buttonClass, useSession } from '@ruilplein/ui';
import { REPORT_UNAVAILABLE, sendReport } from './report.ts';
import * as styles from './ListingDetail.module.css';

/**
 * 'Rapporteren' and the dialog it opens (a modal <dialog>: opening focuses the reason, the focus stays
 * inside, Escape closes it and the focus returns to the button): a reason, sent as a report of the
 * listing's owner.
 */
export function ReportDialog({ listingId, ownerId }: { listingId: string; ownerId: string }) {
  const { user } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const reasonId = useId();
  const problemId = useId();
  const report = useMutation({
    mutationFn: sendReport,
    onSuccess: () => dialog.current?.close(),
    onError: (err) => {
      console.warn('Fout bij verzenden rapport.', err);
      setProblem(err instanceof Error && err.message ? err.message : REPORT_UNAVAILABLE);
    },
  });

  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setProblem('Vul een reden in.');
    setProblem(null);
    report.mutate({ reporterID: user?.id ?? '', reportedID: ownerId, reportedListingID: listingId, reason: reason.trim() });
  };

  return (
    <>
      <button ref={opener} type="button" className={`${buttonClass('link')} ${styles.report}`} onClick={() => setOpen(true)}>
        <Flag aria-hidden="true" size={16} />
        Rapporteren
      </button>
      <dialog
        ref={dialog}
        className={styles.dialog}
        aria-labelledby={titleId}
        onClose={() => {
          setOpen(false);
          setProblem(null);
          report.reset();
          opener.current?.focus();
        }}
      >
        {open && (
          <form onSubmit={submit} className={styles.dialogForm}>
            <h2 id={titleId}>Listing rapporteren</h2>
            <p>Vertel ons wat er niet klopt aan deze listing. Een beheerder bekijkt je melding.</p>
            <label htmlFor={reasonId}>Reden</label>
            <textarea
              id={reasonId}
              value={reason}
              rows={5}
              maxLength={1000}
              onChange={(event) => setReason(event.target.value)}
              aria-invalid={problem === 'Vul een reden in.'}
              aria-describedby={problem ? problemId : undefined}
            />
            {problem && (
              <p id={problemId} role="alert" className={styles.problem}>
                {problem}
              </p>
            )}
            <div className={styles.dialogActions}>
              <button type="button" className={buttonClass('secondary')} onClick={() => dialog.current?.close()}>
                Annuleren
              </button>
              <button type="submit" className={buttonClass()} disabled={report.isPending}>
                {report.isPending ? 'Bezig...' : 'Versturen'}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}
