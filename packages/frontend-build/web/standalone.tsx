import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient, SessionProvider } from '@ruilplein/ui';

/**
 * A remote's own development page (`npm run dev -w @ruilplein/mfe-…`): its `./routes` mounted at
 * its base the way the shell mounts it, with the real ui package, without the shell around it.
 */
export function mountStandalone(RemoteRoutes: ComponentType, base: '/dashboard' | '/admin', start: string) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <QueryClientProvider client={createQueryClient()}>
          <SessionProvider>
            <Routes>
              <Route path={`${base}/*`} element={<RemoteRoutes />} />
              <Route path="*" element={<Navigate to={start} replace />} />
            </Routes>
          </SessionProvider>
        </QueryClientProvider>
      </BrowserRouter>
    </StrictMode>,
  );
}
