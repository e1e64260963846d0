import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { authApi } from '@ruilplein/contracts/browser';
import { buttonClass, request } from '@ruilplein/ui';
import { AuthPage } from './AuthLayout.tsx';
import { FormNotice } from './FormNotice.tsx';
import * as form from './form.module.css';

/** /change-password?token=… (spec 1 §2, §4): the reset form; no strength rule, only equal passwords. */
export function ChangePassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(token ? null : 'Ongeldige of ontbrekende token.');
  const change = useMutation({
    mutationFn: () => request(authApi.changePassword, { body: { token: token ?? '', newPassword: password }, token: null }),
    onError: (err) => setError(`Fout bij wachtwoord wijzigen: ${err.message}`),
  });
  const busy = change.isPending;
  const done = change.isSuccess ? change.data || 'Je wachtwoord is gewijzigd.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) return setError('Wachtwoorden komen niet overeen.');
    setError(null);
    change.mutate();
  };

  return (
    <AuthPage title="Nieuw wachtwoord instellen">
      {done ? (
        <FormNotice ok>
          {done} <Link to="/login">Naar inloggen</Link>
        </FormNotice>
      ) : (
        <form onSubmit={submit} className={form.form}>
          <fieldset disabled={!token || busy}>
            <label htmlFor="new-password">Nieuw wachtwoord</label>
            <input id="new-password" type="password" required autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <label htmlFor="confirm-password">Bevestig nieuw wachtwoord</label>
            <input id="confirm-password" type="password" required autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            <button type="submit" className={buttonClass()}>{busy ? 'Bezig met opslaan…' : 'Wachtwoord wijzigen'}</button>
          </fieldset>
        </form>
      )}
      {error && (
        <FormNotice ok={false}>
          {error}
        </FormNotice>
      )}
    </AuthPage>
  );
}
