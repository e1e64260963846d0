import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { authApi, PASSWORD_CHECKLIST } from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, request } from '@ruilplein/ui';
import { AuthLayout } from './AuthLayout.tsx';
import { lookUpPlace, PlaceSearch, type CityValue } from './PlaceSearch.tsx';
import { mailMayNotArrive, passwordStrength, registrationErrors, type Registration } from './validation.ts';
import { FormNotice } from './FormNotice.tsx';
import * as styles from './form.module.css';

const empty: Registration = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };
const labels: Record<keyof Registration, [label: string, type: string, autoComplete: string]> = {
  firstName: ['Voornaam', 'text', 'given-name'],
  lastName: ['Achternaam', 'text', 'family-name'],
  email: ['E-mailadres', 'email', 'email'],
  password: ['Wachtwoord', 'password', 'new-password'],
  confirmPassword: ['Bevestig wachtwoord', 'password', 'new-password'],
};
const fieldOrder: (keyof Registration)[] = ['firstName', 'lastName', 'email'];

/** Coordinates for a typed city that was not chosen from the suggestions; a failed lookup registers without them (spec 1 §8). */
async function withCoordinates(city: CityValue): Promise<CityValue> {
  if (!city.city.trim() || city.latitude !== undefined) return city;
  const place = await lookUpPlace(city.city).catch(() => null);
  return place ? { city: city.city.trim(), latitude: place.latitude, longitude: place.longitude } : { city: city.city.trim() };
}

/**
 * Every password rule at once, each ticked while typing (issue 27): the rules are contracts', so
 * the form and the server agree. Unmet rules after a submit are marked as such.
 */
function PasswordRules({ password, submitted }: { password: string; submitted: boolean }) {
  return (
    <ul id="register-password-rules" className={styles.rules} aria-label="Eisen aan je wachtwoord" data-testid="password-rules">
      {PASSWORD_CHECKLIST.map((rule) => {
        const met = rule.met(password);
        return (
          <li key={rule.label} data-met={met} className={!met && submitted ? styles.ruleMissed : undefined}>
            <span aria-hidden="true">{met ? '✓' : '○'}</span> {rule.label}
            <span className={styles.srOnly}>{met ? ': in orde' : ': nog niet'}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** /register (spec 1 §2, §4, §5): live rules per field, the password's all at once, strength indicator, a mail warning that never blocks. */
export function Register() {
  const [form, setForm] = useState(empty);
  const [city, setCity] = useState<CityValue>({ city: '' });
  // A field's message shows once it has been edited, every one after a submit.
  const [touched, setTouched] = useState<Partial<Record<keyof Registration, boolean>>>({});
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const errors = registrationErrors(form);
  const strength = passwordStrength(form.password);

  const register = useMutation({
    mutationFn: async () => {
      const place = await withCoordinates(city);
      const { confirmPassword: _, ...fields } = form;
      const body = { ...fields, firstName: form.firstName.trim(), lastName: form.lastName.trim(), ...(place.city ? place : {}) };
      return request(authApi.register, { body, token: null });
    },
    onSuccess: () => {
      setForm(empty);
      setCity({ city: '' });
      setTouched({});
      setSubmitted(false);
      setResult({ ok: true, message: 'Registratie gelukt! Check je e-mail voor activatie. (De email kan ook in spam/ongewenst beland zijn.)' });
    },
    onError: (err) => setResult({ ok: false, message: err instanceof ApiError && err.status !== 0 ? err.message : `Fout bij registreren: ${err.message}` }),
  });
  const busy = register.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ firstName: true, lastName: true, email: true, password: true, confirmPassword: true });
    setSubmitted(true);
    if (Object.keys(errors).length) return setResult({ ok: false, message: 'Controleer je gegevens.' });
    setResult(null);
    register.mutate();
  };

  const field = (name: keyof Registration) => {
    const [label, type, autoComplete] = labels[name];
    // The password's rules stand in their checklist, all at once, rather than one message at a time.
    const error = touched[name] && name !== 'password' ? errors[name] : undefined;
    const describedBy = [error && `register-${name}-error`, name === 'password' && 'register-password-rules'].filter(Boolean).join(' ');
    return (
      <div className={styles.field} key={name}>
        <label htmlFor={`register-${name}`}>{label}</label>
        <input
          id={`register-${name}`}
          type={type}
          autoComplete={autoComplete}
          value={form[name]}
          aria-invalid={Boolean(error) || (name === 'password' && Boolean(touched.password && errors.password))}
          aria-describedby={describedBy || undefined}
          onChange={(event) => {
            setForm({ ...form, [name]: event.target.value });
            setTouched({ ...touched, [name]: true });
          }}
        />
        {error && (
          <span id={`register-${name}-error`} className={styles.fieldError}>
            {error}
          </span>
        )}
      </div>
    );
  };

  return (
    <AuthLayout title="Registreren">
      <form onSubmit={submit} className={styles.form} noValidate>
        {fieldOrder.map(field)}
        {mailMayNotArrive(form.email) && (
          <p className={styles.warning} role="status" data-testid="email-warning">
            Let op: mails naar hotmail-, live-, outlook-, ziggo- en home-adressen komen soms niet aan, ook de activatiemail niet. Gebruik liever een Gmail-adres,
            of vraag ons via sociale media om je account met de hand te activeren.
          </p>
        )}
        <PlaceSearch label="Woonplaats (optioneel)" value={city} onChange={setCity} />
        {field('password')}
        <PasswordRules password={form.password} submitted={submitted} />
        {field('confirmPassword')}
        {form.password && (
          <p className={styles.strength} data-level={strength.toLowerCase()} data-testid="password-strength">
            Wachtwoordsterkte: <strong>{strength}</strong>
          </p>
        )}
        <button type="submit" className={buttonClass()} disabled={busy}>
          {busy ? 'Bezig met registreren…' : 'Registreren'}
        </button>
      </form>
      {result && (
        <FormNotice ok={result.ok}>
          {result.message}
        </FormNotice>
      )}
      <p className={styles.links}>
        <span>
          Heb je al een account? <Link to="/login">Log hier in</Link>
        </span>
      </p>
    </AuthLayout>
  );
}
