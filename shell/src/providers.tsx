import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { SessionProvider } from '@ruilplein/ui';

/**
 * What every page of the shell and of the remotes runs inside: the one query client (remotes find
 * it through the shared @tanstack/react-query singleton) and the session, which empties that
 * client's cache when a member signs out.
 */
export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <SessionProvider>{children}</SessionProvider>
    </QueryClientProvider>
  );
}
