// The keyword box of the landing page, the search page and the services page (issue 23): a text
// field with completions from GET /api/listing/suggest under it, as a WAI-ARIA combobox: arrows
// move through them (the field keeps the focus), Enter picks the active one or searches the text,
// Escape closes the list. The same markup on the server and at hydration: no branch on the session.
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { listingApi, SEARCH_QUERY_MAX_LENGTH } from '@ruilplein/contracts/browser';
import { buttonClass } from './button.ts';
import { useApi } from './query.ts';
import { useSession } from './session.tsx';
import { moveIn, SUGGEST_DEBOUNCE_MS, SUGGEST_MIN_LENGTH, suggestionStatus } from './suggestions.ts';
import * as styles from './search-box.module.css';

export interface SearchBoxProps {
  /** The search landmark's and the field's name ('Zoeken op trefwoord'). */
  label: string;
  value: string;
  /** Every keystroke. */
  onChange: (value: string) => void;
  /** Enter, the button, or a picked suggestion: search for `value` now. */
  onSearch: (value: string) => void;
  placeholder?: string;
  /** The label shown above the field; hidden (still read) when false. */
  showLabel?: boolean;
}

/** The text once the member stops typing for a moment (as typed: after a trailing space there is no word to complete). */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SUGGEST_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

export function SearchBox({ label, value, onChange, onSearch, placeholder = "Zoek bijvoorbeeld 'fiets'", showLabel = false }: SearchBoxProps) {
  const id = useId();
  const fieldId = `${id}-field`;
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const { isAuthenticated } = useSession();
  const [open, setOpen] = useState(false);
  const settled = useSettled(value);
  // The active completion belongs to the text it was chosen for: a new settled text starts with none.
  const [choice, setChoice] = useState({ of: settled, index: -1 });
  const active = choice.of === settled ? choice.index : -1;
  const setActive = (index: number) => setChoice({ of: settled, index });
  // A guest asks only when the route lets a guest in: a refused call would end in the login flow.
  const allowed = isAuthenticated || listingApi.suggest.access === 'public';
  const wanted = settled.trimStart();
  const asked = allowed && wanted.trim().length >= SUGGEST_MIN_LENGTH;
  const suggestions = useApi(listingApi.suggest, { query: { q: wanted } }, { enabled: asked, staleTime: 60_000 });
  // Only the completions of what the field says now (not of an older text while typing on).
  const items = asked && settled === value ? (suggestions.data ?? []) : [];
  const shown = open && items.length > 0;

  const search = (text: string) => {
    setOpen(false);
    setActive(-1);
    onSearch(text);
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const move = moveIn(event.key, { count: items.length, open: shown, active });
    if (!move) return;
    event.preventDefault();
    if ('pick' in move) {
      const picked = items[move.pick]!;
      onChange(picked);
      search(picked);
      return;
    }
    setOpen(move.open);
    setActive(move.active);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    search(value.trim());
  };

  return (
    <form role="search" aria-label={label} className={styles.box} onSubmit={submit} data-testid="search-box">
      <label htmlFor={fieldId} className={showLabel ? styles.label : styles.hidden}>
        {label}
      </label>
      <div className={styles.row}>
        <div className={styles.combo}>
          <svg aria-hidden="true" className={styles.icon} width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-4-4" />
          </svg>
          <input
            id={fieldId}
            type="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={shown}
            aria-controls={listId}
            aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
            autoComplete="off"
            spellCheck={false}
            enterKeyHint="search"
            maxLength={SEARCH_QUERY_MAX_LENGTH}
            placeholder={placeholder}
            value={value}
            className={styles.field}
            onChange={(event) => {
              onChange(event.target.value);
              setOpen(true);
            }}
            onKeyDown={keyDown}
            onBlur={() => setOpen(false)}
          />
          <ul id={listId} role="listbox" aria-label="Suggesties" className={styles.list} hidden={!shown} data-testid="search-suggestions">
            {shown &&
              items.map((item, index) => (
                <li
                  key={item}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  className={index === active ? styles.activeOption : styles.option}
                  // The field keeps the focus (and the list stays) until the click is done.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    onChange(item);
                    search(item);
                  }}
                >
                  {item}
                </li>
              ))}
          </ul>
        </div>
        <button type="submit" className={buttonClass()}>
          Zoeken
        </button>
      </div>
      <p className={styles.hidden} role="status" aria-live="polite">
        {suggestionStatus(items.length, shown)}
      </p>
    </form>
  );
}
