// Rules, limits and Dutch messages of listings (spec 2 §5 and §9) that the browser and the listing
// service both apply. Zod-free: exported by `@ruilplein/contracts/browser`.

export const LISTING_TITLE_MAX_LENGTH = 100;
/** The form's character counter turns red above this. */
export const LISTING_TITLE_WARN_LENGTH = 90;
export const LISTING_DESCRIPTION_MAX_LENGTH = 2000;
export const LISTING_DESCRIPTION_WARN_LENGTH = 1900;

/** The estimated value in euro: optional, 0 to 1,000,000, in cents. */
export const LISTING_VALUE_MIN = 0;
export const LISTING_VALUE_MAX = 1_000_000;
export const LISTING_VALUE_STEP = 0.01;

export const LISTING_PHOTOS_MIN = 1;
export const LISTING_PHOTOS_MAX = 5;
/** All photos of one listing together (spec 2 §9: 20 MB). */
export const LISTING_PHOTOS_MAX_TOTAL_BYTES = 20 * 1024 * 1024;
export const LISTING_CATEGORIES_MIN = 1;

/** Active listings of a member without Premium (spec 2 §9). */
export const FREE_ACTIVE_LISTINGS_MAX = 5;

export const LISTING_TYPES = ['item', 'service'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

/** Spec 2 §5; the add form shows them with '❌ ' in front. */
export const LISTING_MESSAGES = {
  notLoggedIn: 'Je bent niet ingelogd.',
  titleRequired: 'Titel is verplicht.',
  titleTooLong: 'Titel mag hoogstens 100 tekens lang zijn.',
  descriptionRequired: 'Beschrijving is verplicht.',
  descriptionTooLong: 'Beschrijving mag hoogstens 2000 tekens lang zijn.',
  invalidValue: 'Geschatte waarde moet een geldig nummer zijn.',
  valueOutOfRange: 'Geschatte waarde moet tussen 0 en 1.000.000 euro liggen.',
  photoRequired: 'Upload minstens 1 afbeelding.',
  tooManyPhotos: 'Je kunt hoogstens 5 afbeeldingen uploaden.',
  photosTooLarge: 'De totale bestandsgrootte mag niet meer dan 20MB zijn.',
  photoNotImage: 'Alleen afbeeldingen zijn toegestaan.',
  categoryRequired: 'Selecteer minstens 1 categorie.',
  premiumCategoryOnly: 'Alleen voor premium leden',
  notFound: 'Listing niet gevonden.',
} as const;

/**
 * The value field as typed (a comma counts as decimal point, spec 2 §5): undefined when empty,
 * NaN when it is no number; the range is a separate rule.
 */
export function parseListingValue(text: string): number | undefined {
  const t = text.trim().replace(',', '.');
  if (!t) return undefined;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/** The first rule an estimated value breaks, or undefined (an absent value is fine). */
export function listingValueProblem(value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value)) return LISTING_MESSAGES.invalidValue;
  if (value < LISTING_VALUE_MIN || value > LISTING_VALUE_MAX) return LISTING_MESSAGES.valueOutOfRange;
  return undefined;
}
