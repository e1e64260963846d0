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

export const LISTING_PHOTOS_MIN = 1;
export const LISTING_PHOTOS_MAX = 5;
/** All photos of one listing together (spec 2 §9: 20 MB). */
export const LISTING_PHOTOS_MAX_TOTAL_BYTES = 20 * 1024 * 1024;
export const LISTING_CATEGORIES_MIN = 1;

/**
 * The photos of one create or edit are processed within this time, or the request is refused (503)
 * with nothing stored: the gateway gives up after UPSTREAM_TIMEOUT_MS (5 s), and a listing written
 * after that would be one the member never hears of (probe: ten creates, ten 504s, ten listings).
 * The rest of the 5 s is for reading the form and the writes.
 */
export const LISTING_PHOTO_BUDGET_MS = 3000;
/** Creates or edits with photos one member may have in progress at once (per service process); more are 429. */
export const LISTING_PHOTO_JOBS_PER_MEMBER = 1;
/** Seconds a refused create or edit is told to wait (Retry-After) when the photo work is full. */
export const LISTING_PHOTO_RETRY_SECONDS = 5;

/**
 * Listing creates take an `Idempotency-Key` header (the listings remote sends one per form
 * submission, the same on a retry): a repeat with the same key by the same member within
 * IDEMPOTENCY_KEY_HOURS answers the first result and creates nothing.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
export const IDEMPOTENCY_KEY_HOURS = 24;

/** A listing is shown to Premium members (and its owner) only, this long after it is placed (spec: Premium sees new listings 6 hours earlier). */
export const PREMIUM_HEAD_START_HOURS = 6;

/** Active listings of a member without Premium (spec 2 §9). */
export const FREE_ACTIVE_LISTINGS_MAX = 5;

export const LISTING_TYPES = ['item', 'service'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

const photosMegabytes = LISTING_PHOTOS_MAX_TOTAL_BYTES / (1024 * 1024);

/** Spec 2 §5; the add form shows them with '❌ ' in front. The numbers come from the rules above. */
export const LISTING_MESSAGES = {
  notLoggedIn: 'Je bent niet ingelogd.',
  titleRequired: 'Titel is verplicht.',
  titleTooLong: `Titel mag hoogstens ${LISTING_TITLE_MAX_LENGTH} tekens lang zijn.`,
  descriptionRequired: 'Beschrijving is verplicht.',
  descriptionTooLong: `Beschrijving mag hoogstens ${LISTING_DESCRIPTION_MAX_LENGTH} tekens lang zijn.`,
  invalidValue: 'Geschatte waarde moet een geldig nummer zijn.',
  valueOutOfRange: 'Geschatte waarde moet tussen 0 en 1.000.000 euro liggen.',
  photoRequired: `Upload minstens ${LISTING_PHOTOS_MIN} afbeelding.`,
  tooManyPhotos: `Je kunt hoogstens ${LISTING_PHOTOS_MAX} afbeeldingen uploaden.`,
  photosTooLarge: `De totale bestandsgrootte mag niet meer dan ${photosMegabytes}MB zijn.`,
  photoNotImage: 'Alleen afbeeldingen zijn toegestaan.',
  photoTooManyPixels: 'Een afbeelding heeft te veel pixels (maximaal 40 megapixel).',
  categoryRequired: `Selecteer minstens ${LISTING_CATEGORIES_MIN} categorie.`,
  /** The edit screen's own wording of the same rule (spec 2 §2). */
  categoryRequiredEdit: 'Selecteer minimaal één categorie.',
  unknownCategory: 'Onbekende categorie.',
  premiumCategoryOnly: 'Alleen voor premium leden',
  premiumCategoryRefused: 'Alleen premium leden kunnen premium categorieën kiezen.',
  premiumListingRefused: 'Alleen premium leden kunnen een listing alleen voor premium leden plaatsen.',
  invalidType: 'Kies Item of Dienst.',
  activeLimit: `Je hebt al ${FREE_ACTIVE_LISTINGS_MAX} actieve listings. Word Premium om onbeperkt listings te plaatsen.`,
  notOwner: 'Je kunt alleen je eigen listings wijzigen.',
  notFound: 'Listing niet gevonden.',
  deleted: 'Listing succesvol verwijderd.',
  created: 'Listing succesvol toegevoegd!',
  updated: 'Listing succesvol bijgewerkt!',
  photosBusy: 'Er worden nu te veel afbeeldingen verwerkt. Probeer het over een paar seconden opnieuw.',
  photosBusyMember: 'Je vorige listing wordt nog verwerkt. Wacht tot die klaar is en probeer het dan opnieuw.',
  invalidIdempotencyKey: 'Ongeldige Idempotency-Key: gebruik 8 tot 100 letters, cijfers, - of _.',
  idempotencyKeyReused: 'Deze Idempotency-Key hoort bij een ander formulier. Verstuur het formulier opnieuw.',
  idempotencyKeyBusy: 'Deze listing wordt nog geplaatst. Probeer het over een paar seconden opnieuw.',
  /** The form's hint beside the photo control. */
  photosHint: `Hoogstens ${LISTING_PHOTOS_MAX} afbeeldingen, samen tot ${photosMegabytes} MB.`,
  /** The form's note on who sees a new listing (the Premium head start). */
  headStart: `Een nieuwe listing zien de eerste ${PREMIUM_HEAD_START_HOURS} uur alleen premium leden; daarna kunnen alle leden hem zien.`,
} as const;

/** Search parameters (GET /api/listing, /api/listing/recommendations): a malformed one is a 400 with its message. */
export const SEARCH_MESSAGES = {
  invalidPage: 'Ongeldige pagina.',
  invalidTake: 'Vraag 1 tot 50 listings per pagina.',
  invalidDistance: 'Ongeldige afstand: kies 1 tot 500 km.',
  invalidValue: 'Ongeldige waarde: gebruik een bedrag van 0 tot 1.000.000 euro.',
  valueRange: 'De minimale waarde is hoger dan de maximale.',
  invalidCategory: 'Ongeldige categorie.',
  invalidType: 'Ongeldig type: kies item of service.',
  invalidBarterMode: 'Ongeldig ruilbeleid: kies all, services_only of services_or_items.',
  invalidPremium: 'Ongeldige premiumfilter: kies true of false.',
  invalidRadius: 'Kies een straal van 1, 5, 10 of 25 km.',
  queryTooLong: 'Zoektekst mag hoogstens 100 tekens lang zijn.',
} as const;

export const WISHLIST_MESSAGES = {
  ownListing: 'Je kunt je eigen listing niet aan je verlanglijstje toevoegen.',
  added: 'Toegevoegd aan je verlanglijstje.',
  removed: 'Verwijderd uit je verlanglijstje.',
  notOnList: 'Deze listing staat niet op je verlanglijstje.',
} as const;

/** Search and services pages (spec 2 §9). */
export const SEARCH_PAGE_SIZE = 15;
export const SEARCH_MAX_TAKE = 50;
export const SEARCH_DEFAULT_DISTANCE_KM = 25;
/** Keywords (`q`, issue 23): at most this many characters; GET /api/listing/suggest answers at most SEARCH_SUGGESTIONS_MAX completions. */
export const SEARCH_QUERY_MAX_LENGTH = 100;
export const SEARCH_SUGGESTIONS_MAX = 8;
export const SEARCH_MAX_DISTANCE_KM = 500;
/** The dashboard's 'Trending in je buurt' (spec 1 §2): these radii, six cards a page. */
export const RECOMMENDATION_RADII_KM = [1, 5, 10, 25] as const;
export const RECOMMENDATION_PAGE_SIZE = 6;
/** The landing page's newest public listings (issue 27): at most this many. */
export const RECENT_LISTINGS_MAX = 8;

export const BARTER_MODES = ['all', 'services_only', 'services_or_items'] as const;
export type BarterMode = (typeof BARTER_MODES)[number];

/**
 * The crate of beer every member has by default (spec 2 §1, the public texts): not a stored listing
 * but a fixed item in everyone's inventory, with this id and the member's own id as its owner.
 */
export const DEFAULT_CRATE = { listingID: 'krat-bier', title: 'Krat Bier', imageUrl: '/uploads/listings/krat-bier.webp' } as const;

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

/** Saved searches (issue 23): how many a member keeps, the name's length and the alert choices. */
export const SAVED_SEARCHES_MAX = 10;
export const SAVED_SEARCHES_MAX_PREMIUM = 50;
export const SAVED_SEARCH_NAME_MAX_LENGTH = 60;
export const SAVED_SEARCH_QUERY_MAX_LENGTH = 100;
/** direct: a mail at once; digest: in the daily digest; off: only in the app. */
export const SAVED_SEARCH_ALERTS = ['direct', 'digest', 'off'] as const;
export type SavedSearchAlert = (typeof SAVED_SEARCH_ALERTS)[number];

export const SAVED_SEARCH_MESSAGES = {
  nameRequired: 'Geef je zoekopdracht een naam.',
  nameTooLong: 'De naam mag hoogstens 60 tekens lang zijn.',
  invalidAlert: 'Kies direct, digest of off als melding.',
  invalidFilters: 'Ongeldige zoekfilters.',
  invalidQuery: 'Zoektekst mag hoogstens 100 tekens lang zijn.',
  tooMany: 'Je kunt hoogstens 10 zoekopdrachten bewaren. Verwijder er een of word Premium (50).',
  tooManyPremium: 'Je kunt hoogstens 50 zoekopdrachten bewaren. Verwijder er eerst een.',
  notFound: 'Deze zoekopdracht bestaat niet (meer).',
  deleted: 'Zoekopdracht verwijderd.',
} as const;

/** The demand preview (issue 23): around one's own place, this far by default; fewer members than this are answered as 0 (few). */
export const DEMAND_DEFAULT_DISTANCE_KM = 10;
export const DEMAND_MIN_COUNT = 3;
