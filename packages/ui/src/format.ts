// Dates are shown as in the Netherlands, whatever the visitor's clock says.
const longDate = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Amsterdam' });
const wholeNumber = new Intl.NumberFormat('nl-NL', { maximumFractionDigits: 0 });

/** A long Dutch date, like '18 april 2025'; 'onbekend' when there is no valid date. */
export function formatDate(value: Date | string | number | null | undefined): string {
  const date = value == null ? null : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? longDate.format(date) : 'onbekend';
}

/** A distance in whole kilometres, like '3 km'; '< 1 km' below one. */
export function formatDistance(km: number): string {
  return km < 1 ? '< 1 km' : `${wholeNumber.format(km)} km`;
}
