import { describe, expect, it } from 'vitest';
import { PASSWORD_CHECKLIST, PASSWORD_MIN_LENGTH, passwordProblem } from '@ruilplein/contracts/browser';
import { mailMayNotArrive, passwordStrength, pictureError, profileErrors, registrationErrors, type Registration } from '../src/account/validation.ts';

const valid: Registration = { firstName: 'Anna', lastName: 'de Vries', email: 'anna@example.nl', password: 'Geheim1', confirmPassword: 'Geheim1' };

describe('registration rules (spec 1 §5)', () => {
  it('accepts a valid form', () => {
    expect(registrationErrors(valid)).toEqual({});
  });

  // The server's rule is \p{Lu}: any uppercase letter counts, as it does there (once the form said
  // no to 'Één' while the server took it).
  it.each(['Éénvoud1', 'Øresund9', 'Çava99', 'Ñandú42'])('takes %s, whose uppercase letter is not ASCII', (password) => {
    expect(registrationErrors({ ...valid, password, confirmPassword: password })).toEqual({});
  });

  it.each<[Partial<Registration>, keyof Registration, string]>([
    [{ firstName: '  ' }, 'firstName', 'Voornaam is verplicht.'],
    [{ lastName: '' }, 'lastName', 'Achternaam is verplicht.'],
    [{ email: 'anna@example' }, 'email', 'Ongeldig e-mailadres.'],
    [{ email: 'anna @example.nl' }, 'email', 'Ongeldig e-mailadres.'],
    [{ email: 'annaexample.nl' }, 'email', 'Ongeldig e-mailadres.'],
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'password', 'Wachtwoord moet minstens 6 tekens lang zijn.'],
    [{ password: 'geheim1', confirmPassword: 'geheim1' }, 'password', 'Wachtwoord moet minstens één hoofdletter bevatten.'],
    [{ password: 'ééééé1', confirmPassword: 'ééééé1' }, 'password', 'Wachtwoord moet minstens één hoofdletter bevatten.'],
    [{ password: `Geheim1${'x'.repeat(122)}`, confirmPassword: `Geheim1${'x'.repeat(122)}` }, 'password', 'Wachtwoord mag hoogstens 128 tekens lang zijn.'],
    [{ firstName: 'A'.repeat(51) }, 'firstName', 'Naam mag hoogstens 50 tekens lang zijn.'],
    [{ email: '' }, 'email', 'Ongeldig e-mailadres.'],
    [{ password: 'Geheimpje', confirmPassword: 'Geheimpje' }, 'password', 'Wachtwoord moet minstens één cijfer bevatten.'],
    [{ confirmPassword: 'Geheim2' }, 'confirmPassword', 'Wachtwoorden komen niet overeen.'],
  ])('%o breaks %s: %s', (change, field, message) => {
    expect(registrationErrors({ ...valid, ...change })).toEqual({ [field]: message });
  });
});

describe('password strength', () => {
  it.each([
    ['', 'Zwak'],
    ['Ab1!x', 'Zwak'],
    ['abcdef', 'Gemiddeld'],
    ['Abcdef1', 'Gemiddeld'],
    ['abcdef1!', 'Gemiddeld'],
    ['Abcdef1!', 'Sterk'],
    ['Ébcdef1!', 'Sterk'],
    // A letter with an accent is a letter, not a special character.
    ['Abcdéf1', 'Gemiddeld'],
  ])('%s is %s', (password, strength) => {
    expect(passwordStrength(password)).toBe(strength);
  });
});

describe('email warning', () => {
  it.each(['jan@hotmail.com', 'jan@live.nl', 'JAN@Outlook.com', 'jan@ziggo.nl', 'jan@home.nl'])('warns for %s', (email) => {
    expect(mailMayNotArrive(email)).toBe(true);
  });
  it('does not warn for others', () => {
    expect(mailMayNotArrive('jan@gmail.com')).toBe(false);
  });
});

describe('profile rules', () => {
  const profile = { firstName: 'Anna', lastName: 'de Vries', email: 'anna@example.nl' };
  it('accepts trimmed valid values', () => {
    expect(profileErrors({ ...profile, email: '  anna@example.nl ' })).toEqual({});
  });
  it('gives each message', () => {
    expect(profileErrors({ firstName: ' ', lastName: '', email: ' ' })).toEqual({
      firstName: 'Voornaam is verplicht.',
      lastName: 'Achternaam is verplicht.',
      email: 'E-mailadres is verplicht.',
    });
    expect(profileErrors({ ...profile, email: 'anna@' })).toEqual({ email: 'Ongeldig e-mailadres.' });
  });
  it('refuses a name the server would refuse', () => {
    expect(profileErrors({ ...profile, lastName: 'x'.repeat(51) })).toEqual({ lastName: 'Naam mag hoogstens 50 tekens lang zijn.' });
  });
  it('checks the picture type and size', () => {
    expect(pictureError({ type: 'image/png', size: 1000 })).toBeNull();
    expect(pictureError({ type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull();
    expect(pictureError({ type: 'image/gif', size: 1000 })).toBe('Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.');
    expect(pictureError({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe('De profielfoto mag niet groter zijn dan 5MB.');
  });
});

describe("the registration form's password checklist (issue 27)", () => {
  // The checklist shows every rule at once; it must say 'all met' exactly when the server's rule takes the password.
  it.each(['', 'abc', 'abcdef', 'abcdef1', 'Abcdef', 'Abcde1', 'Éénvoud1', 'A1', `A1${'x'.repeat(126)}`, `A1${'x'.repeat(127)}`])('agrees with the server’s rule on %j', (password) => {
    const met = PASSWORD_CHECKLIST.map((rule) => rule.met(password));
    expect(met.every(Boolean)).toBe(passwordProblem(password) === undefined);
  });

  it('names each rule with its figure', () => {
    expect(PASSWORD_CHECKLIST.map((rule) => rule.label)).toEqual([`Minstens ${PASSWORD_MIN_LENGTH} tekens`, 'Minstens één hoofdletter', 'Minstens één cijfer']);
  });
});
