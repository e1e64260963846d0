/** Date and time in Dutch ('23 nov 2026, 14:05'). */
export const dateTime = (iso: string) => new Date(iso).toLocaleString('nl-NL', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Today as YYYY-MM-DD: the earliest a ban's end date may be picked (the day after, really: the end is that day's start). */
export const tomorrow = () => {
  const d = new Date(Date.now() + 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * A day in Dutch as /geblokkeerd shows it ('3 december 2026'): a suspension's end (the moment that
 * day begins in the Netherlands) or a picked date (`YYYY-MM-DD`, read as that day).
 */
export const longDate = (value: string) =>
  new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' }).format(new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T12:00:00Z` : value));
