// Rules, limits and Dutch messages of trade offers and reviews (spec 2 §5 and §9) that the browser
// and the trade service both apply. Zod-free: exported by `@ruilplein/contracts/browser`.

/** Trade offers a member without Premium may make per day (spec 2 §9); Premium: unlimited. */
export const OFFER_DAILY_LIMIT = 2;
/** The day of the daily limit: a calendar day in the Netherlands, whatever the server's zone. */
export const OFFER_DAY_TIME_ZONE = 'Europe/Amsterdam';
/** Sent when the offer's message is empty after trimming. */
export const DEFAULT_OFFER_MESSAGE = 'Zullen we ruilen? 😄';
/** The message of a three-party offer proposed from a swap chain (issue 24). */
export const CHAIN_OFFER_MESSAGE = 'Zullen we met z’n drieën ruilen? Ieder geeft één ding en krijgt er één terug.';
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

/** At most this many offers in one chain of counter-offers (the first offer is round 1). */
export const COUNTER_ROUNDS_MAX = 10;

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
  onlyReceiverCounters: 'Alleen de ontvanger kan een tegenbod doen.',
  counterNeedsTheirItem: 'Kies minstens één item van de ander voor je tegenbod.',
  counterRoundsOver: `Na ${COUNTER_ROUNDS_MAX} rondes kun je geen tegenbod meer doen: accepteer of wijs het aanbod af.`,
  alreadyAccepted: 'Je hebt dit aanbod al geaccepteerd.',
  chainNoCounter: 'Op een ruilketen kun je geen tegenbod doen: accepteer of wijs hem af.',
  chainNotRing: 'Deze ruilketen klopt niet: ieder geeft wat de volgende ontvangt.',
  chainProposerNotMember: 'Je doet zelf niet mee aan deze ruilketen.',
  chainListingTaken: 'Een van de listings zit al in een ander lopend ruilketen-voorstel.',
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

// Reliability (issue 24): what a member's counterparties saw of them.

/** An offer received counts as answered in time when answered within this many hours. */
export const RELIABILITY_ANSWER_HOURS = 48;
/** Completed trades with the same member count once per this many days. */
export const RELIABILITY_SAME_MEMBER_DAYS = 30;
/** Below this many offers counted, a member is shown as new ('Nieuw lid'). */
export const RELIABILITY_MIN_SAMPLE = 3;

/** Hours in minutes, days in milliseconds: the rules below. */
const ANSWER_MS = RELIABILITY_ANSWER_HOURS * 3600_000;

/**
 * What the trade service knows of a member as a receiver and as a party, announced with their
 * totals (`trade.member.counted`); the score is computed from it when asked, since an offer left
 * unanswered turns late by the clock alone.
 */
export interface ReliabilityFacts {
  /** Offers received and answered (accepted or rejected) within 48 hours, and later. */
  answeredInTime: number;
  answeredLate: number;
  /** Offers received that ended unanswered after their 48 hours had passed (withdrawn, cancelled). */
  endedUnanswered: number;
  /** When each offer still open and unanswered was received (ISO): late once 48 hours old. */
  openSince: string[];
  /** Minutes to a first answer, of the most recent answers. */
  responseMinutes: number[];
  /** Accepted offers that ended completed, and cancelled by this member. */
  completed: number;
  cancelledBySelf: number;
  /** Completed trades, with the same member once per 30 days. */
  trades: number;
  /** Offers counted in any rate (those open and not yet late left out). */
  sample: number;
}

/** The score at `now` from a member's facts (none: a member who never traded). */
export function reliabilityOf(facts: ReliabilityFacts | undefined, now: number): Reliability {
  if (!facts) return { responseRate: null, medianResponseMinutes: null, completionRate: null, completedTrades: 0, sample: 0 };
  const lateOpen = facts.openSince.filter((at) => now - Date.parse(at) >= ANSWER_MS).length;
  const received = facts.answeredInTime + facts.answeredLate + facts.endedUnanswered + lateOpen;
  const minutes = [...facts.responseMinutes].sort((a, b) => a - b);
  const mid = minutes.length >> 1;
  const median = !minutes.length ? null : minutes.length % 2 ? minutes[mid]! : Math.round((minutes[mid - 1]! + minutes[mid]!) / 2);
  const ended = facts.completed + facts.cancelledBySelf;
  const rate = (n: number, of: number) => (of ? Math.round((n / of) * 100) / 100 : null);
  return {
    responseRate: rate(facts.answeredInTime, received),
    medianResponseMinutes: median,
    completionRate: rate(facts.completed, ended),
    completedTrades: facts.trades,
    sample: facts.sample + lateOpen,
  };
}

/** `GET /api/user/{id}/reliability`: rates are fractions (0–1, two decimals), null without anything to count. */
export interface Reliability {
  /** Of the offers received that had their 48 hours (or an answer), the share answered within 48 hours. */
  responseRate: number | null;
  /** The median time from receiving an offer to a first answer, in minutes. */
  medianResponseMinutes: number | null;
  /** Of the accepted offers that ended, the share completed rather than cancelled by this member. */
  completionRate: number | null;
  /** Completed trades; with the same member once per 30 days. */
  completedTrades: number;
  /** Offers counted in the rates. */
  sample: number;
}

/** A duration as a member reads it: 'een kwartier', '3 uur', '2 dagen'. */
function roughly(minutes: number): string {
  if (minutes < 60) return minutes <= 15 ? 'een kwartier' : `${Math.max(20, Math.ceil(minutes / 10) * 10)} minuten`;
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return hours === 1 ? 'een uur' : `${hours} uur`;
  const days = Math.ceil(hours / 24);
  return days === 1 ? 'een dag' : `${days} dagen`;
}

/** The line on profiles, offer pages and cards: 'Reageert meestal binnen 3 uur · 95% afgerond (20 ruilen)', or 'Nieuw lid'. */
export function reliabilityLine(r: Reliability): string {
  if (r.sample < RELIABILITY_MIN_SAMPLE) return 'Nieuw lid';
  const parts: string[] = [];
  if (r.medianResponseMinutes !== null) parts.push(`Reageert meestal binnen ${roughly(r.medianResponseMinutes)}`);
  const trades = `${r.completedTrades} ${r.completedTrades === 1 ? 'ruil' : 'ruilen'}`;
  parts.push(r.completionRate !== null ? `${Math.round(r.completionRate * 100)}% afgerond (${trades})` : trades);
  return parts.join(' · ');
}
