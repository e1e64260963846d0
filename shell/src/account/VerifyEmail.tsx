import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { authApi } from '@ruilplein/contracts/browser';
import { ApiError, Page, Spinner, request } from '@ruilplein/ui';
import { FormNotice } from './FormNotice.tsx';
import * as styles from './VerifyEmail.module.css';

type State = 'verifying' | 'success' | 'failed' | 'missing' | 'error';

const activate = (token: string): Promise<State> =>
  request(authApi.activate, { query: { token }, token: null }).then(
    () => 'success' as const,
    // The server turned the link down (used, expired, unknown) or could not be asked.
    (err: unknown) => (err instanceof ApiError && err.status >= 400 && err.status < 500 ? 'failed' : 'error'),
  );

/** The activation page (spec 1 §2): verifying, then success, failed, missing token or error. */
export function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token');
  // A link token works once: asked once per page visit and kept (strict mode and remounts reuse the answer).
  const activation = useQuery({ queryKey: ['activation', token], queryFn: () => activate(token!), enabled: Boolean(token), staleTime: Infinity, gcTime: Infinity, retry: false });
  const state: State = token ? (activation.data ?? 'verifying') : 'missing';

  return (
    <Page title="E-mailadres bevestigen">
      <div className={styles.verify} data-state={state}>
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
