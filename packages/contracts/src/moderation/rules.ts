// Rules, limits and Dutch messages of reports, warnings and bans (spec 2 §4, §5, §8) that the
// browser and the moderation service both apply. Zod-free: exported by `@ruilplein/contracts/browser`.

/** Report statuses (spec 2 §4), in the words the seed sends. */
export const REPORT_STATUSES = ['Nieuw', 'In behandeling', 'Afgehandeld', 'Gewaarschuwd', 'Geband'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** Open: still to be handled. The others are closed. */
export const OPEN_REPORT_STATUSES: readonly ReportStatus[] = ['Nieuw', 'In behandeling'];
export const isOpenReport = (status: ReportStatus) => OPEN_REPORT_STATUSES.includes(status);

/** The admin's filter on 'Meldingen beheren': Openstaand, Afgehandeld, Alles. */
export const REPORT_FILTERS = ['open', 'closed', 'all'] as const;
export type ReportFilter = (typeof REPORT_FILTERS)[number];

/**
 * What a report is about, chosen in the report dialog (the public profile's too, issue 22); the
 * words are the Dutch labels the dialog shows and the admin's list repeats. Optional: the offer
 * screen's dialog of the seed sends none.
 */
export const REPORT_CATEGORIES = ['Oplichting', 'Ongepast gedrag', 'Verboden artikel', 'Spam', 'Anders'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export const REPORT_REASON_MAX_LENGTH = 1000;
export const WARNING_MESSAGE_MAX_LENGTH = 1000;
export const BAN_REASON_MAX_LENGTH = 1000;
/** Reports per page (spec 2 §9). */
export const REPORT_PAGE_SIZE = 50;
/** Latest reports on the admin dashboard. */
export const LATEST_REPORTS = 5;

export const MODERATION_MESSAGES = {
  reasonRequired: 'Geef een reden op.',
  reasonTooLong: `De reden mag maximaal ${REPORT_REASON_MAX_LENGTH} tekens zijn.`,
  messageRequired: 'Een waarschuwing heeft een bericht nodig.',
  messageTooLong: `Het bericht mag maximaal ${WARNING_MESSAGE_MAX_LENGTH} tekens zijn.`,
  banReasonRequired: 'Geef een reden voor de ban op.',
  invalidMember: 'Ongeldig id van een gebruiker.',
  invalidListing: 'Ongeldig id van een listing.',
  invalidReport: 'Ongeldig id van een melding.',
  invalidStatus: `Ongeldige status. Kies uit: ${REPORT_STATUSES.join(', ')}.`,
  invalidCategory: `Ongeldige categorie. Kies uit: ${REPORT_CATEGORIES.join(', ')}.`,
  invalidDate: 'Ongeldige datum.',
  dateInPast: 'De einddatum van een ban moet in de toekomst liggen.',
  memberNotFound: 'Deze gebruiker bestaat niet.',
  listingNotFound: 'Deze listing bestaat niet.',
  listingNotOfReported: 'Deze listing is niet van de gebruiker die je meldt.',
  reportNotFound: 'Melding niet gevonden.',
  reportNotAbout: 'Deze melding gaat over een andere gebruiker.',
  notYourself: 'Je kunt jezelf niet melden.',
  alreadyReported: 'Je hebt deze gebruiker al gemeld; een beheerder bekijkt je melding.',
  notAdmins: 'Een beheerder of moderator kun je niet waarschuwen of bannen.',
  reportSent: 'Bedankt, je melding is verstuurd. Een beheerder bekijkt hem zo snel mogelijk.',
  warned: 'Waarschuwing verstuurd.',
  banned: 'Gebruiker geband.',
  notSuspended: 'Deze gebruiker is niet geblokkeerd.',
  lifted: 'Blokkering opgeheven.',
  invalidMembers: 'Geef hoogstens 100 geldige id’s van gebruikers, gescheiden door komma’s.',
} as const;

/** Members whose suspensions one call of the admin's user list asks for (its page size at most). */
export const SUSPENSION_LOOKUP_MAX = 100;
