// The keyboard rules of the search box's suggestion list (WAI-ARIA combobox with a listbox popup):
// plain functions, unit-tested; search-box.tsx applies them.

/** Suggestions are asked from this many characters (after trimming). */
export const SUGGEST_MIN_LENGTH = 2;
/** Typing waits this long before suggestions are asked. */
export const SUGGEST_DEBOUNCE_MS = 150;

/** What a key does to the list: the option that becomes active (-1: none, the text field itself), or whether it closes or picks. */
export type SuggestionMove = { active: number; open: boolean } | { pick: number } | null;

/**
 * The effect of `key` with `count` suggestions, the list `open` or not and option `active` active.
 * Down and Up move through the list and wrap through the text field (-1); Down opens a closed list;
 * Enter on an active option picks it; Escape closes an open list. null: the key is the field's own.
 */
export function moveIn(key: string, { count, open, active }: { count: number; open: boolean; active: number }): SuggestionMove {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      if (!open) return { active: 0, open: true };
      return { active: active + 1 >= count ? -1 : active + 1, open: true };
    case 'ArrowUp':
      if (!open) return { active: count - 1, open: true };
      return { active: active <= -1 ? count - 1 : active - 1, open: true };
    case 'Enter':
      return open && active >= 0 && active < count ? { pick: active } : null;
    case 'Escape':
      return open ? { active: -1, open: false } : null;
    default:
      return null;
  }
}

/** What the live region says about the list: how many there are and how to reach them. */
export function suggestionStatus(count: number, open: boolean): string {
  if (!open || count === 0) return '';
  return count === 1 ? '1 suggestie, kies met pijltje omlaag.' : `${count} suggesties, kies met de pijltjestoetsen.`;
}
