import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { authApi } from '@ruilplein/contracts/browser';
import { request } from '@ruilplein/ui';
import { AuthPage } from './AuthLayout.tsx';
import { FormNotice } from './FormNotice.tsx';

/** /change-password?token=… (spec 1 §2, §4): the reset form; no strength rule, only equal passwords. */
export function ChangePassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(token ? null : 'Ongeldige of ontbrekende token.');
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) return setError('Wachtwoorden komen niet overeen.');
    setBusy(true);
    setError(null);
    try {
      const answer = await request(authApi.changePassword, { body: { token: token ?? '', newPassword: password }, token: null });
      setDone(answer || 'Je wachtwoord is gewijzigd.');
    } catch (err) {
      setError(`Fout bij wachtwoord wijzigen: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthPage title="Nieuw wachtwoord instellen">
      {done ? (
        <FormNotice ok>
          {done} <Link to="/login">Naar inloggen</Link>
        </FormNotice>
      ) : (
        <form onSubmit={submit} className="account-form">
          <fieldset disabled={!token || busy}>
            <label htmlFor="new-password">Nieuw wachtwoord</label>
            <input id="new-password" type="password" required autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <label htmlFor="confirm-password">Bevestig nieuw wachtwoord</label>
            <input id="confirm-password" type="password" required autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            <button type="submit">{busy ? 'Bezig met opslaan…' : 'Wachtwoord wijzigen'}</button>
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
