import { Link, matchPath, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Page, Spinner, useSession } from '@ruilplein/ui';
import { accountScreenRoutes, verifyEmailRoute } from './account/routes.tsx';
import { DashboardHome, DashboardLayout, Profile } from './dashboard/index.ts';
import { NotFound, PublicLayout, publicPageRoutes, ScrollToTop } from './public/index.ts';
import { RemoteArea } from './RemoteArea.tsx';
import type { RemoteName } from './remotes.ts';

/**
 * Which remote owns which path. The shell decides before loading anything, so a page of the shell
 * (like `/`) downloads no remote code. Mounting scheme: a remote is rendered by a splat route at its
 * base (`/dashboard/*` for listings and trades, inside the dashboard layout; `/admin/*` for admin,
 * which brings its own layout). Its `./routes` component renders descendant <Routes> whose paths are
 * relative to that base (`search`, `listing/:id`; admin: index, `users`), the same way its standalone
 * development page mounts it.
 */
const remotePaths: Record<RemoteName, string[]> = {
  listings: [
    '/dashboard/search',
    '/dashboard/services',
    '/dashboard/listing/:id',
    '/dashboard/my-listings',
    '/dashboard/add-listing',
    '/dashboard/edit-listing/:id',
    '/dashboard/wishlist',
    '/dashboard/user/:id',
  ],
  trades: ['/dashboard/offers', '/dashboard/listing/:id/offer', '/dashboard/tradeoffer/:id'],
  admin: ['/admin/*'],
};

function RemoteOutlet() {
  const { pathname } = useLocation();
  const remote = (Object.keys(remotePaths) as RemoteName[]).find((name) => remotePaths[name].some((path) => matchPath(path, pathname)));
  // Keyed by remote: moving to another remote's page starts its area afresh (loading, error, retries).
  return remote ? <RemoteArea key={remote} remote={remote} /> : <NotFound />;
}

/** The admin area is for Beheerders and Moderators; its API refuses everyone else anyway. */
function AdminGate() {
  const { isAuthenticated, isAdmin } = useSession();
  if (!isAuthenticated) return <Navigate to="/login" replace />;
  if (!isAdmin)
    return (
      <Page title="Geen toegang">
        <p>
          Dit deel is alleen voor beheerders. <Link to="/dashboard">Naar je dashboard</Link>
        </p>
      </Page>
    );
  return <RemoteOutlet />;
}

export function App() {
  // A stored session is checked before any page shows (spec 1 §2).
  if (useSession().loading) return <Spinner label="Sessie controleren…" />;
  return (
    <>
      {/* Outside <Routes>: every route change starts at the top (spec 1 §2). */}
      <ScrollToTop />
      <Routes>
        <Route element={<PublicLayout />}>
          {publicPageRoutes}
          {verifyEmailRoute}
          <Route path="*" element={<NotFound />} />
        </Route>
        {accountScreenRoutes}
        <Route path="/dashboard" element={<DashboardLayout />}>
          <Route index element={<DashboardHome />} />
          <Route path="profile" element={<Profile />} />
          <Route path="*" element={<RemoteOutlet />} />
        </Route>
        <Route path="/admin/*" element={<AdminGate />} />
      </Routes>
    </>
  );
}
