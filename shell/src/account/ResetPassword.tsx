import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { authApi } from '@ruilplein/contracts/browser';
import { buttonClass, request } from '@ruilplein/ui';
import { AuthPage } from './AuthLayout.tsx';
import { FormNotice } from './FormNotice.tsx';
import * as form from './form.module.css';
import * as styles from './ResetPassword.module.css';

/** Asks for a reset link (POST /api/auth/request-password-reset, the bare email as body); the answer is the server's text. */
export async function requestPasswordReset(email: string): Promise<string> {
  const answer = await request(authApi.requestPasswordReset, { body: email });
  return answer;
}

/** /reset-password (spec 1 §2): one email field, a confirmation dialog, then the request. */
export function ResetPassword() {
  const [email, setEmail] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const reset = useMutation({
    mutationFn: () => requestPasswordReset(email.trim()),
    onSuccess: (message) => setResult({ ok: true, message }),
    onError: (err) => setResult({ ok: false, message: err.message }),
  });
  const busy = reset.isPending;
  const dialog = useRef<HTMLDialogElement>(null);

  const ask = (event: FormEvent) => {
    event.preventDefault(); // the browser has checked the address (required, type email)
    setResult(null);
    dialog.current?.showModal();
  };

  const send = () => {
    dialog.current?.close();
    reset.mutate();
  };

  return (
    <AuthPage title="Wachtwoord vergeten">
      <p>Vul je e-mailadres in. We sturen je een link waarmee je een nieuw wachtwoord kiest.</p>
      <form onSubmit={ask} className={form.form}>
        <label htmlFor="reset-email">E-mailadres</label>
        <input id="reset-email" type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <button type="submit" className={buttonClass()} disabled={busy}>
          {busy ? 'Bezig met versturen…' : 'Stuur resetlink'}
        </button>
      </form>
      {result && (
        <FormNotice ok={result.ok}>
          {result.message}
        </FormNotice>
      )}
      <p className={form.links}>
        <Link to="/login">Terug naar inloggen</Link>
      </p>
      <dialog ref={dialog} className={styles.dialog} aria-labelledby="reset-confirm-title">
        <h2 id="reset-confirm-title">Resetlink versturen?</h2>
        <p>We sturen een link om je wachtwoord opnieuw in te stellen naar {email.trim()}.</p>
        <div className={styles.actions}>
          <button type="button" className={buttonClass()} onClick={send}>
            Versturen
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={() => dialog.current?.close()}>
            Annuleren
          </button>
        </div>
      </dialog>
    </AuthPage>
  );
}
