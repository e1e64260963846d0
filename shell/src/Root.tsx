import type { QueryClient } from '@tanstack/react-query';
import { App } from './App.tsx';
import { PageMeta } from './PageMeta.tsx';
import { Providers } from './providers.tsx';

/**
 * Everything inside the router, the same for the browser (src/index.tsx) and the prerender at build
 * time (src/prerender.tsx): a prerendered page only hydrates if both render this one tree.
 */
export function Root({ client }: { client: QueryClient }) {
  return (
    <Providers client={client}>
      <PageMeta />
      <App />
    </Providers>
  );
}
