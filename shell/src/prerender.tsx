// The server side of the prerendered pages (packages/frontend-build/src/prerender.ts builds this for
// Node and writes each page's HTML at build time). The tree is the one src/index.tsx hydrates, with
// a StaticRouter at the page's path and a visitor without a session, as every first render is.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { createQueryClient } from '@ruilplein/ui';
import { shellPages } from './pages.ts';
import { Root } from './Root.tsx';

/** The pages to write, with what their <head> says. */
export const pages = shellPages.filter((page) => page.prerender);

/** The markup inside `<div id="root">` of the page at `path`. */
export async function render(path: string): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <Root client={createQueryClient()} />
      </StaticRouter>
    </StrictMode>,
    { onError: (err) => void errors.push(err) },
  );
  const html = await new Response(prelude).text();
  // A component that throws on the server would leave a client-rendered hole: fail the build instead.
  if (errors.length) throw new AggregateError(errors, `prerendering ${path} failed`);
  return html;
}
