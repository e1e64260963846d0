import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, request, useSession } from '@ruilplein/ui';
import { AuthLayout } from './AuthLayout.tsx';
import { FormNotice } from './FormNotice.tsx';
import { RETURN_PARAM, returnPath } from './returnTo.ts';
import * as form from './form.module.css';

type Outcome =
  | { kind: 'failed'; message: string }
  | { kind: 'not-activated' }
  | { kind: 'resending' }
  | { kind: 'resent'; message: string; failed: boolean };

const notActivated = (err: ApiError) =>
  err.status === 409 && typeof err.body === 'object' && err.body !== null && 'activationAvailable' in err.body && Boolean(err.body.activationAvailable);

/** /login (spec 1 §2 and §4): no client-side validation; the server's answer decides what shows. 'Wachtwoord vergeten?' always shows (issue 27). */
export function Login() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  // A guest sent here by something they asked for (the landing page's search) goes back to it.
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const login = useMutation({
    // Never as the stored member: a refused password must not renew a session and try again.
    mutationFn: () => request(authApi.login, { body: { email, password }, token: null }),
    onSuccess: ({ token, user }) => {
      signIn(token, user);
      navigate(returnPath(params.get(RETURN_PARAM)));
    },
    onError: (err) => {
      if (err instanceof ApiError && notActivated(err)) return setOutcome({ kind: 'not-activated' });
      if (err instanceof ApiError && err.status !== 0) setOutcome({ kind: 'failed', message: `❌ ${err.message || 'Inloggen mislukt.'}` });
      else setOutcome({ kind: 'failed', message: `Fout bij inloggen: ${err.message}` });
    },
  });
  const busy = login.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    login.mutate();
  };

  const resendMail = useMutation({
    mutationFn: () => request(authApi.resendActivation, { body: email, token: null }),
    onMutate: () => setOutcome({ kind: 'resending' }),
    onSuccess: (answer) => setOutcome({ kind: 'resent', message: answer?.message || 'De activatiemail is opnieuw verstuurd.', failed: false }),
    onError: (err) => setOutcome({ kind: 'resent', message: `Fout bij versturen activatiemail: ${err.message}`, failed: true }),
  });
  const resend = () => resendMail.mutate();

  return (
    <AuthLayout title="Inloggen">
      <form onSubmit={submit} className={form.form}>
        <label htmlFor="login-email">E-mailadres</label>
        <input id="login-email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="login-password">Wachtwoord</label>
        <input id="login-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" className={buttonClass()} disabled={busy}>
          {busy ? 'Bezig met inloggen…' : 'Inloggen'}
        </button>
      </form>

      {outcome?.kind === 'failed' && (
        <FormNotice ok={false}>
          {outcome.message}
        </FormNotice>
      )}
      {(outcome?.kind === 'not-activated' || outcome?.kind === 'resending') && (
        <div className={form.notice} role="alert">
          <p>Je account is nog niet geactiveerd.</p>
          <button type="button" className={buttonClass('link')} onClick={resend} disabled={outcome.kind === 'resending'}>
            {outcome.kind === 'resending' ? 'Bezig met versturen…' : 'Stuur de activatiemail opnieuw'}
          </button>
        </div>
      )}
      {outcome?.kind === 'resent' && (
        <FormNotice ok={!outcome.failed}>
          {outcome.message}
        </FormNotice>
      )}

      <p className={form.links}>
        <Link to="/reset-password">Wachtwoord vergeten?</Link>
        <span>
          Nog geen account? <Link to="/register">Registreer hier</Link>
        </span>
      </p>
    </AuthLayout>
  );
}
