// The form rules of spec 1 §5, with their exact Dutch messages. Pure, so unit tests cover them.

/** Text, an at sign, text, a dot, text; no spaces (spec 1 §5). */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface Registration {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Every rule a registration field breaks, first one first; checked live per field and again on submit. */
export function registrationErrors(form: Registration): FieldErrors<keyof Registration> {
  const errors: FieldErrors<keyof Registration> = {};
  if (!form.firstName.trim()) errors.firstName = 'Voornaam is verplicht.';
  if (!form.lastName.trim()) errors.lastName = 'Achternaam is verplicht.';
  if (!emailPattern.test(form.email)) errors.email = 'Ongeldig e-mailadres.';
  if (form.password.length < 6) errors.password = 'Wachtwoord moet minstens 6 tekens lang zijn.';
  else if (!/[A-Z]/.test(form.password)) errors.password = 'Wachtwoord moet minstens één hoofdletter bevatten.';
  else if (!/\d/.test(form.password)) errors.password = 'Wachtwoord moet minstens één cijfer bevatten.';
  if (form.confirmPassword !== form.password) errors.confirmPassword = 'Wachtwoorden komen niet overeen.';
  return errors;
}

export type Strength = 'Zwak' | 'Gemiddeld' | 'Sterk';

/** Under 6 characters weak; an uppercase letter, a digit and a special character strong; otherwise medium. */
export function passwordStrength(password: string): Strength {
  if (password.length < 6) return 'Zwak';
  return /[A-Z]/.test(password) && /\d/.test(password) && /[^A-Za-z0-9]/.test(password) ? 'Sterk' : 'Gemiddeld';
}

/** Mail providers known to drop activation mails (spec 1 §5): a warning, never a block. */
export function mailMayNotArrive(email: string): boolean {
  return /hotmail|live|outlook|ziggo|home/i.test(email);
}

export interface ProfileFields {
  firstName: string;
  lastName: string;
  email: string;
}

/** Profile save (spec 1 §5): trimmed values, each rule's message. */
export function profileErrors(form: ProfileFields): FieldErrors<keyof ProfileFields> {
  const errors: FieldErrors<keyof ProfileFields> = {};
  if (!form.firstName.trim()) errors.firstName = 'Voornaam is verplicht.';
  if (!form.lastName.trim()) errors.lastName = 'Achternaam is verplicht.';
  const email = form.email.trim();
  if (!email) errors.email = 'E-mailadres is verplicht.';
  else if (!emailPattern.test(email)) errors.email = 'Ongeldig e-mailadres.';
  return errors;
}

const pictureTypes = ['image/jpeg', 'image/png', 'image/webp'];
export const maxPictureBytes = 5 * 1024 * 1024;

/** Why a chosen profile picture cannot be sent, or null. The server checks the content again. */
export function pictureError(file: { type: string; size: number }): string | null {
  if (!pictureTypes.includes(file.type)) return 'Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.';
  if (file.size > maxPictureBytes) return 'De profielfoto mag niet groter zijn dan 5MB.';
  return null;
}
