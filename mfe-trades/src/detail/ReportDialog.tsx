import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { OfferParty } from '@ruilplein/contracts/browser';
import { buttonClass, useSession } from '@ruilplein/ui';
import { REPORT_UNAVAILABLE, sendReport } from './report.ts';
import * as styles from './OfferDetail.module.css';

/**
 * 'Rapporteren' and the dialog it opens for the other party (a modal <dialog>: opening focuses the
 * reason, the focus stays inside, Escape closes it and the focus returns to the button).
 */
export function ReportDialog({ reported, listingId }: { reported: OfferParty; listingId: string }) {
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
    report.mutate({ reporterID: user?.id ?? '', reportedID: reported.id, reportedListingID: listingId, reason: reason.trim() });
  };

  return (
    <>
      <button ref={opener} type="button" className={`${buttonClass('link')} ${styles.report}`} onClick={() => setOpen(true)}>
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
            <h2 id={titleId}>
              {reported.firstName} {reported.lastName} rapporteren
            </h2>
            <p>Vertel ons wat er niet klopt aan dit aanbod of aan {reported.firstName}. Een beheerder bekijkt je melding.</p>
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
