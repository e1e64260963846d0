import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { authApi } from '@ruilplein/contracts/browser';
import { ApiError, Page, Spinner, request } from '@ruilplein/ui';
import { FormNotice } from './FormNotice.tsx';

type State = 'verifying' | 'success' | 'failed' | 'missing' | 'error';

// A link token works once: the same page rendered again (React's strict mode, a remount) must not spend it twice.
const activations = new Map<string, Promise<State>>();

function activate(token: string): Promise<State> {
  let attempt = activations.get(token);
  if (!attempt) {
    attempt = request(authApi.activate, { query: { token }, token: null }).then(
      () => 'success' as const,
      // The server turned the link down (used, expired, unknown) or could not be asked.
      (err: unknown) => (err instanceof ApiError && err.status >= 400 && err.status < 500 ? 'failed' : 'error'),
    );
    activations.set(token, attempt);
  }
  return attempt;
}

/** The activation page (spec 1 §2): verifying, then success, failed, missing token or error. */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<State>(token ? 'verifying' : 'missing');

  useEffect(() => {
    if (!token) return setState('missing');
    let current = true;
    setState('verifying');
    void activate(token).then((result) => current && setState(result));
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <Page title="E-mailadres bevestigen">
      <div className="verify-email" data-state={state}>
        {state === 'verifying' && <Spinner label="Bezig met verifiëren…" />}
        {state === 'success' && (
          <FormNotice ok>
            Je e-mailadres is bevestigd en je account is geactiveerd. <Link to="/login">Log nu in</Link>
          </FormNotice>
        )}
        {state === 'failed' && (
          <FormNotice ok={false}>
            Verificatie mislukt. Misschien is deze link al gebruikt of ongeldig.
          </FormNotice>
        )}
        {state === 'missing' && (
          <FormNotice ok={false}>
            Geen e-mailadres opgegeven in de link.
          </FormNotice>
        )}
        {state === 'error' && (
          <FormNotice ok={false}>
            Er ging iets fout bij het verifiëren.
          </FormNotice>
        )}
      </div>
    </Page>
  );
}
