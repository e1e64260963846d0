import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from '@ruilplein/ui';
import { Root } from './Root.tsx';

// The same tree as src/prerender.tsx renders at build time: a prerendered page (its HTML already
// in #root) is hydrated, any other page (app.html, an empty #root) rendered here.
const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <Root client={createQueryClient()} />
    </BrowserRouter>
  </StrictMode>
);
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
