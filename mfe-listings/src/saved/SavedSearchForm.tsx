// A saved search's name and alert, as the search page saves a new one and the saved-searches page
// edits one: the name checked here as the service checks it, the service's refusal shown as is.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  NOTIFICATION_MESSAGES,
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCH_MESSAGES,
  SAVED_SEARCH_NAME_MAX_LENGTH,
  type SavedSearchAlert,
} from '@ruilplein/contracts/browser';
import { buttonClass } from '@ruilplein/ui';
import * as styles from './Saved.module.css';

/** What each alert means, under its choice. */
const alertHints: Record<SavedSearchAlert, string> = {
  direct: 'Een melding en meteen een e-mail bij elke nieuwe listing.',
  digest: 'Een melding, en de e-mail in je dagelijkse overzicht.',
  off: 'Alleen een melding hier, geen e-mail.',
};

/** The name's problem, as the service words it; undefined when it is fine. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return SAVED_SEARCH_MESSAGES.nameRequired;
  if (trimmed.length > SAVED_SEARCH_NAME_MAX_LENGTH) return SAVED_SEARCH_MESSAGES.nameTooLong;
  return undefined;
}

export interface SavedSearchFormProps {
  name: string;
  alert: SavedSearchAlert;
  submitLabel: string;
  busy: boolean;
  /** The service's refusal of the last attempt, if any. */
  refusal?: string;
  onSubmit: (value: { name: string; alert: SavedSearchAlert }) => void;
  onCancel: () => void;
}

export function SavedSearchForm({ name: initialName, alert: initialAlert, submitLabel, busy, refusal, onSubmit, onCancel }: SavedSearchFormProps) {
  const id = useId();
  const [name, setName] = useState(initialName);
  const [alert, setAlert] = useState<SavedSearchAlert>(initialAlert);
  const [problem, setProblem] = useState<string | undefined>();
  const field = useRef<HTMLInputElement>(null);
  const shown = problem ?? refusal;

  // Opened to be filled in: the name first.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = nameProblem(name);
    setProblem(found);
    if (found) return field.current?.focus();
    onSubmit({ name: name.trim(), alert });
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-busy={busy} data-testid="saved-search-form">
      <div className={styles.field}>
        <label htmlFor={`${id}-name`}>Naam</label>
        <input
          id={`${id}-name`}
          ref={field}
          value={name}
          maxLength={SAVED_SEARCH_NAME_MAX_LENGTH}
          aria-invalid={problem ? true : undefined}
          aria-describedby={shown ? `${id}-problem` : undefined}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <fieldset className={styles.alerts}>
        <legend>E-mail bij nieuwe listings</legend>
        {SAVED_SEARCH_ALERTS.map((choice) => (
          <label key={choice} className={styles.alert}>
            <input type="radio" name={`${id}-alert`} value={choice} checked={alert === choice} onChange={() => setAlert(choice)} />
            <span>
              <strong>{NOTIFICATION_MESSAGES.preferenceLabels[choice]}</strong>
              <span className={styles.hint}>{alertHints[choice]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {shown && (
        <p id={`${id}-problem`} className={styles.problem} role="alert">
          {shown}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" className={buttonClass()} disabled={busy}>
          {busy ? 'Bezig…' : submitLabel}
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
          Annuleren
        </button>
      </div>
    </form>
  );
}
