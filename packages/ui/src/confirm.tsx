import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { buttonClass } from './button.ts';
import * as styles from './confirm.module.css';

interface Question {
  message: string;
  confirmLabel: string;
  danger: boolean;
  resolve: (confirmed: boolean) => void;
}

export interface ConfirmOptions {
  confirmLabel: string;
  /** A step that cannot be undone for the other party (reject, withdraw): the button in red. */
  danger?: boolean;
}

/**
 * A yes/no question as a modal dialog (the browser's confirm cannot be styled or tested): `const [dialog, confirm] = useConfirm()`, render `dialog`, then
 * `if (await confirm('Weet je zeker…?', { confirmLabel: 'Afwijzen' })) …`. Escape or Annuleren
 * answers no; the focus goes back to where it was.
 */
export function useConfirm(): [ReactNode, (message: string, options: ConfirmOptions) => Promise<boolean>] {
  const [question, setQuestion] = useState<Question | null>(null);
  const confirm = useCallback(
    (message: string, { confirmLabel, danger = false }: ConfirmOptions) => new Promise<boolean>((resolve) => setQuestion({ message, confirmLabel, danger, resolve })),
    [],
  );
  const dialog = question && (
    <ConfirmDialog
      message={question.message}
      confirmLabel={question.confirmLabel}
      danger={question.danger}
      onAnswer={(confirmed) => {
        setQuestion(null);
        question.resolve(confirmed);
      }}
    />
  );
  return [dialog, confirm];
}

function ConfirmDialog({ message, confirmLabel, danger, onAnswer }: { message: string; confirmLabel: string; danger: boolean; onAnswer: (confirmed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element || element.open) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    // The safe answer first: Enter on the opened dialog changes nothing.
    cancel.current?.focus();
  }, []);

  const closed = () => {
    if (opener.current?.isConnected) opener.current.focus();
    onAnswer(dialog.current?.returnValue === 'confirm');
  };

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onClose={closed}
      data-testid="confirm-dialog"
    >
      <form method="dialog" className={styles.form}>
        <h2 id={titleId} className={styles.title}>
          Bevestigen
        </h2>
        <p id={messageId} className={styles.message}>
          {message}
        </p>
        <div className={styles.actions}>
          <button ref={cancel} type="submit" value="cancel" className={buttonClass('secondary')}>
            Annuleren
          </button>
          <button type="submit" value="confirm" className={danger ? `${buttonClass()} ${styles.danger}` : buttonClass()}>
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
