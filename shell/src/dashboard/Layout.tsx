import { useEffect, useRef, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Menu, PanelLeftClose } from 'lucide-react';
import { Page, request, useSession } from '@ruilplein/ui';
import { userApi } from '@ruilplein/contracts/browser';
import type { BlockedState } from '../account/Blocked.tsx';
import './dashboard.css';

// Sidebar of the dashboard area (spec 1 §2, "Dashboard area").
const entries = [
  ['/dashboard', 'Dashboard'],
  ['/dashboard/search', 'Aanbod'],
  ['/dashboard/services', 'Ruil-diensten'],
  ['/dashboard/my-listings', 'Plaats een ruil'],
  ['/dashboard/wishlist', 'Verlanglijstje'],
  ['/dashboard/offers', 'Ruilaanbiedingen'],
  ['/dashboard/membership', 'Lidmaatschap'],
  ['/dashboard/profile', 'Mijn profiel'],
] as const;

const narrow = () => typeof matchMedia === 'function' && matchMedia('(max-width: 767px)').matches;

/** Checks the account status on entry (spec 1 §4, "Blocked"); a failed check is only logged. */
function useBlockedRedirect(signedIn: boolean) {
  // useNavigate's function changes with every page; the check runs once on entering the dashboard.
  const navigate = useRef(useNavigate());
  useEffect(() => {
    if (!signedIn) return;
    const abort = new AbortController();
    request(userApi.status, { signal: abort.signal })
      .then((status) => {
        if (!status.blocked) return;
        const state: BlockedState = { reason: status.reason ?? 'warnings', unblockDate: status.unblockDate };
        void navigate.current('/geblokkeerd', { replace: true, state });
      })
      .catch((err: unknown) => !abort.signal.aborted && console.warn('Accountstatus controleren mislukt', err));
    return () => abort.abort();
  }, [signedIn]);
}

/** The dashboard frame: needs user and token (else /login) and an activated account. App shows a spinner until the session is checked. */
export function DashboardLayout() {
  const { isAuthenticated, isActivated, isAdmin, logout } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(narrow);
  useBlockedRedirect(isAuthenticated);

  // On a small screen the open menu covers the page: a chosen entry closes it.
  useEffect(() => {
    if (narrow()) setCollapsed(true);
  }, [pathname]);

  if (!isAuthenticated) return <Navigate to="/login" replace />;

  const signOff = async () => {
    await logout();
    navigate('/login');
  };

  return (
    <div className={`dashboard${collapsed ? ' collapsed' : ''}`}>
      <nav className="sidebar" aria-label="Dashboard">
        <div className="sidebar-top">
          <NavLink to="/" className="logo">
            Ruilplein
          </NavLink>
          <button
            type="button"
            className="sidebar-toggle"
            aria-label={collapsed ? 'Menu openen' : 'Menu sluiten'}
            title={collapsed ? 'Menu openen' : 'Menu sluiten'}
            aria-expanded={!collapsed}
            aria-controls="dashboard-menu"
            onClick={() => setCollapsed(!collapsed)}
          >
            {collapsed ? <Menu aria-hidden="true" size={20} /> : <PanelLeftClose aria-hidden="true" size={20} />}
          </button>
        </div>
        <div id="dashboard-menu" className="sidebar-menu" hidden={collapsed}>
          {entries.map(([to, label]) => (
            <NavLink key={to} to={to} end={to === '/dashboard'}>
              {label}
            </NavLink>
          ))}
          {isAdmin && <NavLink to="/admin">Adminpaneel</NavLink>}
          <button type="button" className="logout" onClick={signOff}>
            Uitloggen
          </button>
        </div>
      </nav>
      <main className="dashboard-main">
        {isActivated ? (
          <Outlet />
        ) : (
          <Page title="Account nog niet geactiveerd">
            <p>Je account is nog niet geactiveerd. Open de link in de activatiemail om het dashboard te gebruiken.</p>
          </Page>
        )}
      </main>
    </div>
  );
}
