import { useEffect, type ReactNode } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { onSuspended, Page, Spinner, useSession } from '@ruilplein/ui';
import { canSee, type Audience, type Mount } from '@ruilplein/ui/area';
import type { SuspendedState } from './account/Suspended.tsx';
import { accountScreenRoutes, verifyEmailRoute } from './account/routes.tsx';
import { pageAt, useAreas } from './areas.ts';
import { DashboardHome, DashboardLayout, Profile } from './dashboard/index.ts';
import { Membership, PaymentReturn, Thanks, Upgrade } from './membership/index.ts';
import { NotificationsPage } from './notifications/index.ts';
import { NotFound, PublicLayout, publicPageRoutes, ScrollToTop } from './public/index.ts';
import { AreaFailure, areaFailed, RemoteArea } from './RemoteArea.tsx';

/**
 * The pages of the remotes: which remote serves a path under `/dashboard` or `/admin` comes from
 * the `area.json` each one publishes (read when such a path is first visited, no remote code); the
 * matching remote's `./routes` then renders it, with paths relative to the mount. A page meant
 * for Premium members or admins shows a notice to anyone else; a path no remote declares is 'not
 * found', unless a remote could not be read, which then is the likelier cause.
 */
function RemoteOutlet({ mount }: { mount: Mount }) {
  const { pathname } = useLocation();
  const session = useSession();
  const areas = useAreas();
  const found = areas.data && pageAt(areas.data.areas, mount, pathname);
  useEffect(() => {
    if (found) document.title = `${found.page.title} | Ruilplein`;
  }, [found]);

  if (areas.isPending) return <Spinner />;
  const retry = () => void areas.refetch();
  if (areas.isError || (!found && areas.data.unreachable.length > 0)) return <AreaFailure title="Even niet beschikbaar" message={areaFailed} onRetry={retry} />;
  if (!found) return <NotFound />;
  if (!canSee(found.page.audience, session)) return <NoAccess audience={found.page.audience} />;
  // Keyed by remote: moving to another remote's page starts its area afresh (loading, error, retries).
  return <RemoteArea key={found.area.name} area={found.area} title={found.page.title} />;
}

function NoAccess({ audience }: { audience?: Audience }) {
  return audience === 'premium' ? (
    <Page title="Alleen voor Premium-leden">
      <p>
        Deze pagina is er voor Premium-leden. <Link to="/dashboard/upgrade">Word Premium</Link>
      </p>
    </Page>
  ) : (
    <Page title="Geen toegang">
      <p>
        Dit deel is alleen voor beheerders. <Link to="/dashboard">Naar je dashboard</Link>
      </p>
    </Page>
  );
}

/** A member area waits for the stored session to be checked (spec 1 §2); the public pages do not. */
function SessionChecked({ children }: { children: ReactNode }) {
  if (useSession().loading) return <Spinner label="Sessie controleren…" />;
  return children;
}

/** The admin area is for Beheerders and Moderators (spec 2 §2): a visitor goes to /, a member to /dashboard; its API refuses them anyway. */
function AdminGate() {
  const { isAuthenticated, isAdmin } = useSession();
  if (!isAuthenticated) return <Navigate to="/" replace />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <RemoteOutlet mount="admin" />;
}

/** Wherever a call is refused because the member is suspended, /geblokkeerd shows why (spec 1 §2). */
function SuspendedWatch() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onSuspended((suspension) => {
        const state: SuspendedState = { reason: suspension.reason, unblockDate: suspension.unblockDate };
        void navigate('/geblokkeerd', { replace: true, state });
      }),
    [navigate],
  );
  return null;
}

export function App() {
  return (
    <>
      {/* Outside <Routes>: every route change starts at the top (spec 1 §2). */}
      <ScrollToTop />
      <SuspendedWatch />
      <Routes>
        <Route element={<PublicLayout />}>
          {publicPageRoutes}
          {verifyEmailRoute}
          <Route path="*" element={<NotFound />} />
        </Route>
        {accountScreenRoutes}
        <Route
          path="/dashboard"
          element={
            <SessionChecked>
              <DashboardLayout />
            </SessionChecked>
          }
        >
          <Route index element={<DashboardHome />} />
          <Route path="profile" element={<Profile />} />
          <Route path="membership" element={<Membership />} />
          <Route path="upgrade" element={<Upgrade />} />
          <Route path="upgrade/betaling" element={<PaymentReturn />} />
          <Route path="upgrade/bedankt" element={<Thanks />} />
          <Route path="notifications" element={<NotificationsPage />} />
          <Route path="*" element={<RemoteOutlet mount="dashboard" />} />
        </Route>
        <Route
          path="/admin/*"
          element={
            // The admin remote brings its own layout (sidebar, header) inside the page's one main region.
            <main id="inhoud">
              <SessionChecked>
                <AdminGate />
              </SessionChecked>
            </main>
          }
        />
      </Routes>
    </>
  );
}
