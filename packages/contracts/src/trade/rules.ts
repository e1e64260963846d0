// Rules, limits and Dutch messages of trade offers and reviews (spec 2 §5 and §9) that the browser
// and the trade service both apply. Zod-free: exported by `@ruilplein/contracts/browser`.

/** Trade offers a member without Premium may make per day (spec 2 §9); Premium: unlimited. */
export const OFFER_DAILY_LIMIT = 2;
/** The day of the daily limit: a calendar day in the Netherlands, whatever the server's zone. */
export const OFFER_DAY_TIME_ZONE = 'Europe/Amsterdam';
/** Sent when the offer's message is empty after trimming. */
export const DEFAULT_OFFER_MESSAGE = 'Zullen we ruilen? 😄';
export const OFFER_MESSAGE_MAX_LENGTH = 1000;
/** Items in one offer, both sides together (an inventory rarely holds more). */
export const OFFER_ITEMS_MAX = 50;

/** Stars, in half steps (spec 2 §5). */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_STEP = 0.5;
export const REVIEW_COMMENT_MAX_LENGTH = 2000;

/** Dutch names of the offer statuses (spec 2 §4), for labels. */
export const OFFER_STATUS_LABELS = {
  Pending: 'In afwachting',
  Accepted: 'Geaccepteerd',
  Rejected: 'Afgewezen',
  Cancelled: 'Geannuleerd',
  Completed: 'Voltooid',
} as const;

/** The statuses the respond call takes (spec 2 §4): the receiver's two answers and the sender's withdrawal. */
export const OFFER_RESPONSES = ['Accepted', 'Rejected', 'Cancelled'] as const;
export type OfferResponse = (typeof OFFER_RESPONSES)[number];

/** Shown for a party whose account is gone (or not known yet). */
export const FORMER_MEMBER = { firstName: 'Voormalig', lastName: 'lid' } as const;

export const OFFER_MESSAGES = {
  ownListing: 'Je kunt geen bod doen op je eigen listing.',
  notFound: 'Niet gevonden.',
  invalidId: 'Ongeldig nummer van een ruilaanbod.',
  invalidDate: 'Ongeldige datum',
  dailyLimit: 'Je hebt vandaag al 2 ruilaanbiedingen gedaan. Word Premium om onbeperkt te kunnen ruilen.',
  receiverRequired: 'Kies de ontvanger van je aanbod.',
  listingRequired: 'Kies de listing waarop je een aanbod doet.',
  invalidListing: 'Ongeldige listing.',
  invalidMember: 'Ongeldige gebruikers-id.',
  receiverNotOwner: 'Deze listing is niet (meer) beschikbaar bij de ontvanger.',
  receiverGone: 'De ontvanger bestaat niet (meer).',
  itemNotOfParty: 'Een aanbod bevat alleen items van jou en van de ontvanger.',
  itemUnavailable: 'Een van de gekozen items is niet (meer) beschikbaar.',
  tooManyItems: 'Een aanbod bevat hoogstens 50 items.',
  messageTooLong: 'Het bericht mag hoogstens 1000 tekens lang zijn.',
  invalidStatus: 'Kies Accepted, Rejected of Cancelled.',
  notParty: 'Je hebt geen toegang tot dit ruilaanbod.',
  onlyReceiverResponds: 'Alleen de ontvanger kan een aanbod accepteren of afwijzen.',
  onlySenderWithdraws: 'Alleen de afzender kan een aanbod intrekken.',
  notPending: 'Dit aanbod is niet meer in afwachting.',
  notAccepted: 'Alleen een geaccepteerd aanbod kan worden bevestigd.',
  alreadyConfirmed: 'Je hebt deze ruil al bevestigd.',
  itemsGone: 'Een of meer listings in dit aanbod zijn niet meer beschikbaar.',
  busy: 'Dit aanbod werd tegelijk ook gewijzigd. Probeer het opnieuw.',
  waiting: 'Wachten op bevestiging van de andere partij...',
} as const;

export const REVIEW_MESSAGES = {
  ratingRequired: 'Je moet een beoordeling geven.',
  invalidRating: 'Een beoordeling is 1 tot 5 sterren, in halve stappen.',
  noComment: 'Geen commentaar.',
  commentTooLong: 'Een review mag hoogstens 2000 tekens lang zijn.',
  thanks: 'Bedankt voor het achterlaten van je review! Deze ruil is nu volledig afgerond.',
  failed: 'Er ging iets mis met het versturen van je review.',
  revieweeRequired: 'Kies wie je beoordeelt.',
  self: 'Je kunt jezelf niet beoordelen.',
  notTraded: 'Je kunt alleen iemand beoordelen met wie je een ruil hebt voltooid.',
  alreadyReviewed: 'Je hebt deze ruil al beoordeeld.',
  revieweeGone: 'Deze gebruiker bestaat niet meer.',
} as const;

/** The message an offer carries: the member's text, trimmed, or the default. */
export const offerMessage = (text: string | null | undefined): string => text?.trim() || DEFAULT_OFFER_MESSAGE;

/** 1 to 5 in steps of 0.5. */
export const isValidRating = (rating: number): boolean =>
  Number.isFinite(rating) && rating >= RATING_MIN && rating <= RATING_MAX && Number.isInteger(rating / RATING_STEP);

const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: OFFER_DAY_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day in the Netherlands at `at`, as year-month-day (`2025-06-01`): the day of the daily limit. */
export function amsterdamDay(at: Date | number = Date.now()): string {
  const parts = Object.fromEntries(dayFormat.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A real calendar day written year-month-day (`2025-02-30` is not). */
export function isValidDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
