// The password rules (rules.ts) as a checklist the registration form shows all at once, each
// ticked live (issue 27): the same limits and patterns the server applies, in the form's order.
import { PASSWORD_DIGIT, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_UPPERCASE } from './rules.ts';

export interface PasswordRule {
  /** What the checklist says, in Dutch. */
  label: string;
  met: (password: string) => boolean;
}

export const PASSWORD_CHECKLIST: readonly PasswordRule[] = [
  { label: `Minstens ${PASSWORD_MIN_LENGTH} tekens`, met: (password) => password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH },
  { label: 'Minstens één hoofdletter', met: (password) => PASSWORD_UPPERCASE.test(password) },
  { label: 'Minstens één cijfer', met: (password) => PASSWORD_DIGIT.test(password) },
];
