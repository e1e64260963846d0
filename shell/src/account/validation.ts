// The form rules of spec 1 §5, with their exact Dutch messages. Pure, so unit tests cover them.
// The rules themselves are the server's (`@ruilplein/contracts/browser`, zod-free): the form
// cannot accept what the server refuses, or the other way round.
import {
  AUTH_MESSAGES,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  NAME_MAX_LENGTH,
  PASSWORD_DIGIT,
  PASSWORD_MIN_LENGTH,
  PASSWORD_UPPERCASE,
  passwordProblem,
  PROFILE_PICTURE_MAX_BYTES,
  PROFILE_PICTURE_TYPES,
  USER_MESSAGES,
} from '@ruilplein/contracts/browser';

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
  const name = (value: string, required: string) => (!value.trim() ? required : value.trim().length > NAME_MAX_LENGTH ? AUTH_MESSAGES.nameTooLong : undefined);
  const firstName = name(form.firstName, AUTH_MESSAGES.firstNameRequired);
  const lastName = name(form.lastName, AUTH_MESSAGES.lastNameRequired);
  if (firstName) errors.firstName = firstName;
  if (lastName) errors.lastName = lastName;
  // Spec 1 §5 has one message here, also for an empty field; spaces are not trimmed away but wrong.
  if (form.email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(form.email)) errors.email = AUTH_MESSAGES.invalidEmail;
  const password = passwordProblem(form.password);
  if (password) errors.password = password;
  if (form.confirmPassword !== form.password) errors.confirmPassword = AUTH_MESSAGES.passwordsDiffer;
  return errors;
}

export type Strength = 'Zwak' | 'Gemiddeld' | 'Sterk';

/** Under the minimum length weak; an uppercase letter, a digit and a special character strong; otherwise medium. */
export function passwordStrength(password: string): Strength {
  if (password.length < PASSWORD_MIN_LENGTH) return 'Zwak';
  // A special character is neither a letter nor a digit of any script (É is a letter, not special).
  return PASSWORD_UPPERCASE.test(password) && PASSWORD_DIGIT.test(password) && /[^\p{L}\p{N}]/u.test(password) ? 'Sterk' : 'Gemiddeld';
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
  if (!form.firstName.trim()) errors.firstName = AUTH_MESSAGES.firstNameRequired;
  else if (form.firstName.trim().length > NAME_MAX_LENGTH) errors.firstName = AUTH_MESSAGES.nameTooLong;
  if (!form.lastName.trim()) errors.lastName = AUTH_MESSAGES.lastNameRequired;
  else if (form.lastName.trim().length > NAME_MAX_LENGTH) errors.lastName = AUTH_MESSAGES.nameTooLong;
  const email = form.email.trim();
  if (!email) errors.email = AUTH_MESSAGES.emailRequired;
  else if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) errors.email = AUTH_MESSAGES.invalidEmail;
  return errors;
}

/** What the file picker offers: the types the server takes. */
export const pictureAccept = PROFILE_PICTURE_TYPES.join(',');

/** Why a chosen profile picture cannot be sent, or null. The server checks the content again. */
export function pictureError(file: { type: string; size: number }): string | null {
  if (!(PROFILE_PICTURE_TYPES as readonly string[]).includes(file.type)) return USER_MESSAGES.pictureWrongType;
  if (file.size > PROFILE_PICTURE_MAX_BYTES) return USER_MESSAGES.pictureTooLarge;
  return null;
}
