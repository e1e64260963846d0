import type { ReactNode } from 'react';
import type { AreaDeclaration } from './area.ts';
import { Link, Route, Routes } from './router.ts';
import { Page } from './layout.tsx';

/** The paths a declaration lists, as a type: `screens` must have exactly one screen for each. */
type PathsOf<A extends AreaDeclaration> = A['pages'][number]['path'];

/**
 * A remote's `./routes`: one route per page its `area.ts` declares, relative to where the shell
 * mounts it. The screens are keyed by those paths, so a declared page without a screen (or a screen
 * without a declaration) fails the type check; anything else under the mount is 'not found'.
 */
export function AreaRoutes<A extends AreaDeclaration>({ area, screens }: { area: A; screens: Record<PathsOf<A>, ReactNode> }) {
  const byPath = screens as Record<string, ReactNode>;
  return (
    <Routes>
      {area.pages.map((page) =>
        page.path ? <Route key={page.path} path={page.path} element={byPath[page.path]} /> : <Route key="" index element={byPath['']} />,
      )}
      <Route
        path="*"
        element={
          <Page title="Pagina niet gevonden">
            <p>
              Deze pagina bestaat niet (meer). <Link to="/dashboard">Naar je dashboard</Link>
            </p>
          </Page>
        }
      />
    </Routes>
  );
}
