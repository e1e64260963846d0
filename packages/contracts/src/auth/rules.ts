// Rules, limits and Dutch messages of accounts and profiles that the browser and the auth service
// both apply. Zod-free: the browser entry (`@ruilplein/contracts/browser`) exports this file, and
// the zod schemas in routes.ts are built from the same constants.

export const ROLES = ['Gebruiker', 'Premium', 'Moderator', 'Beheerder'] as const;
export type Role = (typeof ROLES)[number];
export const ADMIN_ROLES: readonly Role[] = ['Moderator', 'Beheerder'];

/** Shown when a member has no picture of their own (spec 1 §3). */
export const DEFAULT_AVATAR = '/uploads/avatars/default_avatar.jpg';

/** Spec 1 §5: text, at sign, text, dot, text, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The longest address SMTP carries. */
export const EMAIL_MAX_LENGTH = 254;

/** Spec 1 §5 password rules; the server applies them to every new password. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
/** Any uppercase letter, also É or Ø: the `u` flag and `\p{Lu}`, on both sides. */
export const PASSWORD_UPPERCASE = /\p{Lu}/u;
export const PASSWORD_DIGIT = /\d/;

export const NAME_MAX_LENGTH = 50;
export const CITY_MAX_LENGTH = 100;

/** Spec 1 §9: a profile picture is at most 5 MB (5 × 1024 × 1024 bytes). */
export const PROFILE_PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const PROFILE_PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/**
 * Failed logins of one account from all client addresses together (docs/decisions.md "Login
 * limits"): `freeFailures` within `windowSeconds` are answered at once; after that every attempt
 * for the account waits, from `firstDelaySeconds` doubling per failure up to `maxDelaySeconds`,
 * answered 429 with Retry-After whatever its address. Not slowed: an address the account logged in
 * from within `knownClientDays` (its own limit of 5 per 15 minutes still holds), and a password
 * reset, which ends the slow-down.
 */
export const LOGIN_SLOWDOWN = { freeFailures: 10, firstDelaySeconds: 30, maxDelaySeconds: 15 * 60, windowSeconds: 24 * 60 * 60, knownClientDays: 30 } as const;
export type LoginSlowdown = { [K in keyof typeof LOGIN_SLOWDOWN]: number };

export const AUTH_MESSAGES = {
  firstNameRequired: 'Voornaam is verplicht.',
  lastNameRequired: 'Achternaam is verplicht.',
  emailRequired: 'E-mailadres is verplicht.',
  invalidEmail: 'Ongeldig e-mailadres.',
  passwordTooShort: 'Wachtwoord moet minstens 6 tekens lang zijn.',
  passwordNeedsUppercase: 'Wachtwoord moet minstens één hoofdletter bevatten.',
  passwordNeedsDigit: 'Wachtwoord moet minstens één cijfer bevatten.',
  passwordTooLong: 'Wachtwoord mag hoogstens 128 tekens lang zijn.',
  passwordRequired: 'Wachtwoord is verplicht.',
  /** Only the form checks the repetition; the server never sees it. */
  passwordsDiffer: 'Wachtwoorden komen niet overeen.',
  nameTooLong: 'Naam mag hoogstens 50 tekens lang zijn.',
  cityTooLong: 'Woonplaats mag hoogstens 100 tekens lang zijn.',
  coordinatesIncomplete: 'Geef zowel breedte- als lengtegraad op, of geen van beide.',
  registered: 'Registratie gelukt! Check je e-mail voor activatie. (De email kan ook in spam/ongewenst beland zijn.)',
  emailTaken: 'Er bestaat al een account met dit e-mailadres.',
  /** Spec 1 §8's wording for an activation link without its token. */
  activationTokenMissing: 'Geen e-mailadres opgegeven in de link.',
  activationFailed: 'Verificatie mislukt. Misschien is deze link al gebruikt of ongeldig.',
  activated: 'Je account is geactiveerd. Je kunt nu inloggen.',
  notActivated: 'Je account is nog niet geactiveerd.',
  wrongCredentials: 'Onjuist e-mailadres of wachtwoord.',
  resendSent: 'Als er een niet-geactiveerd account bij dit e-mailadres hoort, hebben we een nieuwe activatiemail gestuurd.',
  resetRequested: 'Als dit e-mailadres bij ons bekend is, ontvang je een e-mail met een link om je wachtwoord te wijzigen.',
  resetTokenMissing: 'Ongeldige of ontbrekende token.',
  resetTokenInvalid: 'Deze resetlink is ongeldig, verlopen of al gebruikt. Vraag een nieuwe aan.',
  passwordChanged: 'Je wachtwoord is gewijzigd. Je kunt nu inloggen met je nieuwe wachtwoord.',
  loggedOut: 'Je bent uitgelogd.',
  /** A refresh that cannot renew the session (no, unknown, expired, reused or revoked refresh token). */
  sessionEnded: 'Niet geautoriseerd. Log opnieuw in.',
  /** Past the free failures of an account (LOGIN_SLOWDOWN), whatever the client address. */
  loginSlowedDown: (minutes: number) => `Te veel mislukte inlogpogingen voor dit account. Probeer het over ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'} opnieuw, of stel je wachtwoord opnieuw in.`,
} as const;

export const USER_MESSAGES = {
  pictureWrongType: 'Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.',
  pictureTooLarge: 'De profielfoto mag niet groter zijn dan 5MB.',
  pictureTooManyPixels: 'De profielfoto heeft te veel pixels (maximaal 40 megapixel).',
  cityNotFound: 'Woonplaats niet gevonden.',
  coordinatesWithoutCity: 'Coördinaten horen bij een woonplaats: vul ook de woonplaats in.',
  invalidLatitude: 'Breedtegraad moet een getal tussen -90 en 90 zijn.',
  invalidLongitude: 'Lengtegraad moet een getal tussen -180 en 180 zijn.',
  emailNotChangeable: 'Je e-mailadres kun je niet wijzigen via je profiel.',
  saved: 'Je profiel is opgeslagen.',
  invalidUserId: 'Ongeldige gebruikers-id.',
  invalidUserIds: 'Geef 1 tot 50 geldige gebruikers-id\'s, gescheiden door komma\'s.',
  userNotFound: 'Gebruiker niet gevonden',
} as const;

export const ADMIN_USER_MESSAGES = {
  alreadyActivated: 'Deze gebruiker is al geactiveerd.',
  changedMeanwhile: 'Deze gebruiker werd net gewijzigd. Probeer het opnieuw.',
  activated: 'Gebruiker geactiveerd.',
  deleted: 'Gebruiker verwijderd.',
  cannotDeleteSelf: 'Je kunt je eigen account niet verwijderen.',
  onlyBeheerderDeletesAdmins: 'Alleen een beheerder kan een beheerder of moderator verwijderen.',
} as const;

/** The first password rule `password` breaks, in the order the form shows them; undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return AUTH_MESSAGES.passwordTooLong;
  if (!PASSWORD_UPPERCASE.test(password)) return AUTH_MESSAGES.passwordNeedsUppercase;
  if (!PASSWORD_DIGIT.test(password)) return AUTH_MESSAGES.passwordNeedsDigit;
  return undefined;
}

/** How many members one member may block at once (issue 22). */
export const BLOCK_MAX = 500;

/** Blocking another member; the refusals to trade or chat between them are shown by every service. */
export const BLOCK_MESSAGES = {
  self: 'Je kunt jezelf niet blokkeren.',
  admin: 'Je kunt een beheerder niet blokkeren.',
  tooMany: `Je kunt hoogstens ${BLOCK_MAX} leden blokkeren.`,
  /** A new offer between two members of whom one blocked the other (trade, 403). */
  cannotTrade: 'Je kunt niet met dit lid ruilen.',
  /** A message or the chat of an offer between them (chat, 403). */
  cannotChat: 'Je kunt niet met dit lid chatten.',
  changedMeanwhile: 'Je blokkeerlijst werd net gewijzigd. Probeer het opnieuw.',
} as const;
