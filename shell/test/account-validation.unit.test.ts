import { describe, expect, it } from 'vitest';
import { mailMayNotArrive, passwordStrength, pictureError, profileErrors, registrationErrors, type Registration } from '../src/account/validation.ts';

const valid: Registration = { firstName: 'Anna', lastName: 'de Vries', email: 'anna@example.nl', password: 'Geheim1', confirmPassword: 'Geheim1' };

describe('registration rules (spec 1 §5)', () => {
  it('accepts a valid form', () => {
    expect(registrationErrors(valid)).toEqual({});
  });

  it.each<[Partial<Registration>, keyof Registration, string]>([
    [{ firstName: '  ' }, 'firstName', 'Voornaam is verplicht.'],
    [{ lastName: '' }, 'lastName', 'Achternaam is verplicht.'],
    [{ email: 'anna@example' }, 'email', 'Ongeldig e-mailadres.'],
    [{ email: 'anna @example.nl' }, 'email', 'Ongeldig e-mailadres.'],
    [{ email: 'annaexample.nl' }, 'email', 'Ongeldig e-mailadres.'],
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'password', 'Wachtwoord moet minstens 6 tekens lang zijn.'],
    [{ password: 'geheim1', confirmPassword: 'geheim1' }, 'password', 'Wachtwoord moet minstens één hoofdletter bevatten.'],
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
  it('checks the picture type and size', () => {
    expect(pictureError({ type: 'image/png', size: 1000 })).toBeNull();
    expect(pictureError({ type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull();
    expect(pictureError({ type: 'image/gif', size: 1000 })).toBe('Alleen JPG, PNG of WEBP afbeeldingen zijn toegestaan.');
    expect(pictureError({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe('De profielfoto mag niet groter zijn dan 5MB.');
  });
});
