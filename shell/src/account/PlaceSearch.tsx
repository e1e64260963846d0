import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { request, useApi } from '@ruilplein/ui';
import { geoApi, type Place } from '@ruilplein/contracts/browser';
import * as styles from './PlaceSearch.module.css';

/** A city as a form holds it: coordinates only once a place was chosen or looked up. */
export interface CityValue {
  city: string;
  latitude?: number;
  longitude?: number;
}

const searchPlaces = (q: string, signal?: AbortSignal) => request(geoApi.search, { query: { q }, signal });

/**
 * The place for a typed city, a Dutch one first (spec 1 §7: the hit preferring a Dutch country code
 * supplies the coordinates); null when nothing matches. Our own place search, so no member's city
 * leaves our servers.
 */
export async function lookUpPlace(city: string): Promise<Place | null> {
  const places = await searchPlaces(city.trim());
  return places.find((place) => place.country === 'NL') ?? places[0] ?? null;
}

const placeLabel = (place: Place) => `${place.name}${place.region ? `, ${place.region}` : ''} (${place.country})`;

/** A city field with suggestions from GET /api/geo/search (a combobox: arrows, Enter, Escape). */
export function PlaceSearch({ label, value, onChange, disabled }: { label: string; value: CityValue; onChange(next: CityValue): void; disabled?: boolean }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const query = value.city.trim();
  // Only what was typed is looked up; a chosen place carries its coordinates.
  const typed = open && value.latitude === undefined && query.length >= 2;
  // Asked once typing pauses for 250 ms; the same text again comes from the cache.
  const [term, setTerm] = useState(query);
  useEffect(() => {
    const timer = setTimeout(() => setTerm(query), 250);
    return () => clearTimeout(timer);
  }, [query]);
  const suggestions = useApi(geoApi.search, { query: { q: term } }, { enabled: typed && term.length >= 2, staleTime: 5 * 60_000 });
  // Suggestions are a help: when they fail, the field still takes any text.
  const places = typed && !suggestions.isError ? (suggestions.data ?? null) : null;
  const searching = typed && (term !== query || suggestions.isFetching);
  // The active suggestion belongs to the answer it was chosen in: a new answer starts with none.
  const [choice, setChoice] = useState<{ in: Place[] | undefined; index: number }>({ in: undefined, index: -1 });
  const active = choice.in === suggestions.data ? choice.index : -1;

  const shown = typed && (searching || places !== null);
  const choose = (place: Place) => {
    onChange({ city: place.name, latitude: place.latitude, longitude: place.longitude });
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!shown || !places?.length) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // From none, up goes to the last one.
      const next = active < 0 && step < 0 ? places.length - 1 : (active + step + places.length) % places.length;
      setChoice({ in: suggestions.data, index: next });
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      choose(places[active]!);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  return (
    <div className={styles.search}>
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-activedescendant={shown && active >= 0 ? `${id}-${active}` : undefined}
        value={value.city}
        disabled={disabled}
        onChange={(event) => {
          onChange({ city: event.target.value });
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      {shown && (
        <ul id={`${id}-list`} role="listbox" aria-label={label} className={styles.options}>
          {searching && !places ? (
            <li className={styles.note}>Zoeken…</li>
          ) : places?.length ? (
            places.map((place, i) => (
              <li
                key={`${place.name}-${place.latitude}-${place.longitude}`}
                id={`${id}-${i}`}
                role="option"
                aria-selected={i === active}
                // Before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(place);
                }}
              >
                {placeLabel(place)}
              </li>
            ))
          ) : (
            <li className={styles.note}>Geen plaatsen gevonden.</li>
          )}
        </ul>
      )}
    </div>
  );
}
