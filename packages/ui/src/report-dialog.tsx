import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { MODERATION_MESSAGES, moderationApi, REPORT_CATEGORIES, REPORT_REASON_MAX_LENGTH, type ReportCategory } from '@ruilplein/contracts/browser';
import { buttonClass } from './button.ts';
import { request } from './client.ts';
import { useSession } from './session.tsx';
import * as styles from './report-dialog.module.css';

const categoryRequired = 'Kies wat er aan de hand is.';

export interface ReportDialogProps {
  /** The member reported. */
  reportedId: string;
  /** The listing the report is about, if any (the offer screen: the first requested listing). */
  listingId?: string;
  /** The dialog's heading, e.g. 'Listing rapporteren'. */
  title: string;
  /** One sentence under it: what to tell. */
  intro: string;
  /** Drawn before 'Rapporteren' on the button (an icon). */
  icon?: ReactNode;
  /** The button's classes beside the link look. */
  className?: string;
  /** Asks what kind of problem it is (Oplichting, Ongepast gedrag…) before the text: reporting a member from their profile. */
  withCategory?: boolean;
}

/**
 * 'Rapporteren' and the dialog it opens (spec 2 §2): a modal <dialog> (opening focuses the reason,
 * the focus stays inside, Escape closes it and the focus returns to the button) whose reason is
 * sent as a report by the signed-in member. The server's Dutch message shows when it refuses
 * (already reported, too many reports); after sending, the dialog says thanks.
 */
export function ReportDialog({ reportedId, listingId, title, intro, icon, className, withCategory = false }: ReportDialogProps) {
  const { user } = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [category, setCategory] = useState<ReportCategory | ''>('');
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const reasonId = useId();
  const categoryId = useId();
  const problemId = useId();
  const report = useMutation({
    mutationFn: (body: { reporterID: string; reportedID: string; reportedListingID?: string; reason: string; category?: ReportCategory }) => request(moderationApi.createReport, { body }),
    onSuccess: () => {
      setReason('');
      setCategory('');
    },
    onError: (err) => {
      console.warn('Fout bij verzenden rapport.', err);
      setProblem(err instanceof Error && err.message ? err.message : 'Fout bij verzenden rapport.');
    },
  });

  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (withCategory && !category) return setProblem(categoryRequired);
    if (!reason.trim()) return setProblem(MODERATION_MESSAGES.reasonRequired);
    setProblem(null);
    report.mutate({
      reporterID: user?.id ?? '',
      reportedID: reportedId,
      ...(listingId && { reportedListingID: listingId }),
      ...(category && { category }),
      reason: reason.trim(),
    });
  };

  return (
    <>
      <button ref={opener} type="button" className={`${buttonClass('link')} ${styles.opener} ${className ?? ''}`} onClick={() => setOpen(true)}>
        {icon}
        Rapporteren
      </button>
      <dialog
        ref={dialog}
        className={styles.dialog}
        aria-labelledby={titleId}
        onClose={() => {
          setOpen(false);
          setCategory('');
          setProblem(null);
          report.reset();
          opener.current?.focus();
        }}
      >
        {open &&
          (report.isSuccess ? (
            <div className={styles.form}>
              <h2 id={titleId}>{title}</h2>
              <p role="status" className={styles.done}>
                {MODERATION_MESSAGES.reportSent}
              </p>
              <div className={styles.actions}>
                <button type="button" className={buttonClass()} autoFocus onClick={() => dialog.current?.close()}>
                  Sluiten
                </button>
              </div>
            </div>
          ) : (
            <form onSubmit={submit} className={styles.form}>
              <h2 id={titleId}>{title}</h2>
              <p>{intro}</p>
              {withCategory && (
                <>
                  <label htmlFor={categoryId}>Wat is er aan de hand?</label>
                  <select
                    id={categoryId}
                    value={category}
                    onChange={(event) => setCategory(event.target.value as ReportCategory | '')}
                    aria-invalid={problem === categoryRequired}
                    aria-describedby={problem === categoryRequired ? problemId : undefined}
                    className={styles.category}
                  >
                    <option value="">Kies een reden</option>
                    {REPORT_CATEGORIES.map((value) => (
                      <option key={value} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                </>
              )}
              <label htmlFor={reasonId}>{withCategory ? 'Toelichting' : 'Reden'}</label>
              <textarea
                id={reasonId}
                value={reason}
                rows={5}
                maxLength={REPORT_REASON_MAX_LENGTH}
                onChange={(event) => setReason(event.target.value)}
                aria-invalid={problem === MODERATION_MESSAGES.reasonRequired}
                aria-describedby={problem && problem !== categoryRequired ? problemId : undefined}
              />
              {problem && (
                <p id={problemId} role="alert" className={styles.problem}>
                  {problem}
                </p>
              )}
              <div className={styles.actions}>
                <button type="button" className={buttonClass('secondary')} onClick={() => dialog.current?.close()}>
                  Annuleren
                </button>
                <button type="submit" className={buttonClass()} disabled={report.isPending}>
                  {report.isPending ? 'Bezig...' : 'Versturen'}
                </button>
              </div>
            </form>
          ))}
      </dialog>
    </>
  );
}
