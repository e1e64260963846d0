// The filter controls the search and services pages share: distance, value range, kind, premium and
// the searchable category list.
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { categoryApi } from '@ruilplein/contracts/browser';
import { buttonClass, ErrorMessage, Spinner, useApi, useSession, failureMessage } from '@ruilplein/ui';
import { CategoryIcon } from '../categories/CategoryIcon.tsx';
import { formatWholeEuro } from '../common/format.ts';
import { DISTANCE_MAX_KM, DISTANCE_MIN_KM, VALUE_MAX, VALUE_MIN, VALUE_STEP } from './filters.ts';
import * as styles from './Filters.module.css';

export function FilterPanel({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form role="search" aria-label={label} className={styles.panel} onSubmit={(event) => event.preventDefault()}>
      {children}
    </form>
  );
}

export function DistanceSlider({ value, onChange }: { value: number; onChange: (km: number) => void }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        Afstand <output htmlFor={id}>{value} km</output>
      </label>
      <input
        id={id}
        type="range"
        min={DISTANCE_MIN_KM}
        max={DISTANCE_MAX_KM}
        step={1}
        value={value}
        aria-valuetext={`${value} km`}
        onChange={(event) => onChange(Number(event.target.value))}
        className={styles.range}
      />
    </div>
  );
}

const amount = (value: number, isMax: boolean) => (isMax && value >= VALUE_MAX ? `${formatWholeEuro(VALUE_MAX)} of meer` : formatWholeEuro(value));

/** Two sliders, 0 to 5000 in steps of 10; one pushed past the other takes it along. */
export function ValueRange({ min, max, onChange }: { min: number; max: number; onChange: (range: { minValue: number; maxValue: number }) => void }) {
  const minId = useId();
  const maxId = useId();
  return (
    <fieldset className={styles.group}>
      <legend className={styles.label}>
        Waarde{' '}
        <span className={styles.amount}>
          {amount(min, false)} – {amount(max, true)}
        </span>
      </legend>
      <label htmlFor={minId} className={styles.subLabel}>
        Minimaal
      </label>
      <input
        id={minId}
        type="range"
        min={VALUE_MIN}
        max={VALUE_MAX}
        step={VALUE_STEP}
        value={min}
        aria-valuetext={amount(min, false)}
        onChange={(event) => {
          const next = Number(event.target.value);
          onChange({ minValue: next, maxValue: Math.max(max, next) });
        }}
        className={styles.range}
      />
      <label htmlFor={maxId} className={styles.subLabel}>
        Maximaal
      </label>
      <input
        id={maxId}
        type="range"
        min={VALUE_MIN}
        max={VALUE_MAX}
        step={VALUE_STEP}
        value={max}
        aria-valuetext={amount(max, true)}
        onChange={(event) => {
          const next = Number(event.target.value);
          onChange({ minValue: Math.min(min, next), maxValue: next });
        }}
        className={styles.range}
      />
    </fieldset>
  );
}

/** A row of choices of which one holds: radio buttons that look like a segmented switch. */
export function Choice<T extends string>({ legend, name, value, options, onChange }: { legend: string; name: string; value: T; options: readonly { value: T; label: string }[]; onChange: (value: T) => void }) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.label}>{legend}</legend>
      <div className={styles.segments}>
        {options.map((option) => (
          <label key={option.value} className={styles.segment}>
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** All listings, or Premium ones only. A member without Premium sees none of those: told so, with the way to it. */
export function PremiumSelect({ value, onChange, all }: { value: boolean; onChange: (premium: boolean) => void; all: string }) {
  const id = useId();
  const hint = useId();
  const { isPremium } = useSession();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        Premium
      </label>
      <select id={id} value={value ? 'true' : 'false'} onChange={(event) => onChange(event.target.value === 'true')} aria-describedby={isPremium ? undefined : hint} className={styles.select}>
        <option value="false">{all}</option>
        <option value="true">Alleen premium</option>
      </select>
      {!isPremium && (
        <p id={hint} className={styles.hint}>
          Premium-listings zie je als Premium-lid. <Link to="/dashboard/upgrade">Word Premium</Link>
        </p>
      )}
    </div>
  );
}

/** Every category as a checkbox, narrowed by a search field; premium categories marked. */
export function CategoryFilter({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  // Rarely changes: kept for the visit once read (the same cache entry as the categories page).
  const categories = useApi(categoryApi.list, {}, { staleTime: 10 * 60_000 });
  const [text, setText] = useState('');
  const searchId = useId();
  const chosen = new Set(selected);
  const toggle = (id: string, on: boolean) => onChange(on ? [...selected, id] : selected.filter((other) => other !== id));
  const wanted = text.trim().toLocaleLowerCase('nl');
  let body: ReactNode;
  if (categories.isPending) body = <Spinner label="Categorieën laden…" />;
  else if (categories.isError) body = <ErrorMessage message={failureMessage(categories.error)} onRetry={() => void categories.refetch()} />;
  else {
    const shown = categories.data.filter((category) => category.name.toLocaleLowerCase('nl').includes(wanted));
    body =
      shown.length === 0 ? (
        <p className={styles.hint}>Geen categorie gevonden.</p>
      ) : (
        <ul className={styles.categories}>
          {shown.map((category) => (
            <li key={category.id} data-testid="category">
              <label className={styles.category}>
                <input type="checkbox" checked={chosen.has(category.id)} onChange={(event) => toggle(category.id, event.target.checked)} />
                <CategoryIcon name={category.icon} />
                <span className={styles.categoryName}>{category.name}</span>
                {category.isPremium && <span className={styles.premiumTag}>Premium</span>}
              </label>
            </li>
          ))}
        </ul>
      );
  }
  return (
    <fieldset className={styles.group}>
      {/* A heading as well: the filters' one list long enough to jump to. */}
      <legend className={styles.label}>
        <h3 className={styles.legendHeading}>Categorieën</h3>
        {selected.length > 0 && <span className={styles.amount}>{selected.length} gekozen</span>}
      </legend>
      <label htmlFor={searchId} className={styles.subLabel}>
        Zoek een categorie
      </label>
      <input id={searchId} type="search" value={text} onChange={(event) => setText(event.target.value)} className={styles.text} autoComplete="off" />
      {body}
      {selected.length > 0 && (
        <button type="button" className={buttonClass('link')} onClick={() => onChange([])}>
          Alle categorieën tonen
        </button>
      )}
    </fieldset>
  );
}
