// How listing figures read in Dutch: values in euro, distances in whole kilometres.
import { formatDistance } from '@ruilplein/ui';

const euro = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR' });
const wholeEuro = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });

/** An estimated value, like '€ 25,00'. */
export const formatValue = (value: number): string => euro.format(value);

/** A slider's amount, like '€ 100'. */
export const formatWholeEuro = (value: number): string => wholeEuro.format(value);

/** '12 km · Utrecht', '12 km' or 'Utrecht'; empty when neither is known. */
export function distanceAndCity(distanceInKm: number | null, city: string | undefined): string {
  return [distanceInKm === null ? '' : formatDistance(distanceInKm), city?.trim() ?? ''].filter(Boolean).join(' · ');
}
