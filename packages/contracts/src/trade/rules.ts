// Rules, limits and Dutch messages of trade offers and reviews (spec 2 §5 and §9) that the browser
// and the trade service both apply. Zod-free: exported by `@ruilplein/contracts/browser`.

/** Trade offers a member without Premium may make per day (spec 2 §9); Premium: unlimited. */
export const OFFER_DAILY_LIMIT = 2;
/** Sent when the offer's message is empty after trimming. */
export const DEFAULT_OFFER_MESSAGE = 'Zullen we ruilen? 😄';

/** Stars, in half steps (spec 2 §5). */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_STEP = 0.5;

export const OFFER_MESSAGES = {
  ownListing: 'Je kunt geen bod doen op je eigen listing.',
  notFound: 'Niet gevonden.',
} as const;

export const REVIEW_MESSAGES = {
  ratingRequired: 'Je moet een beoordeling geven.',
  invalidRating: 'Een beoordeling is 1 tot 5 sterren, in halve stappen.',
  noComment: 'Geen commentaar.',
  thanks: 'Bedankt voor het achterlaten van je review! Deze ruil is nu volledig afgerond.',
  failed: 'Er ging iets mis met het versturen van je review.',
} as const;

/** The message an offer carries: the member's text, trimmed, or the default. */
export const offerMessage = (text: string | undefined): string => text?.trim() || DEFAULT_OFFER_MESSAGE;

/** 1 to 5 in steps of 0.5. */
export const isValidRating = (rating: number): boolean =>
  Number.isFinite(rating) && rating >= RATING_MIN && rating <= RATING_MAX && Number.isInteger(rating / RATING_STEP);
