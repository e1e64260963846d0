import { useEffect, useRef, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Bell, Crown, LayoutDashboard, Menu, PanelLeftClose, User } from 'lucide-react';
import { endedBySuspension, Page, useApi, useSession } from '@ruilplein/ui';
import { canSee, type IconNode } from '@ruilplein/ui/area';
import { notificationApi, userApi } from '@ruilplein/contracts/browser';
import type { SuspendedState } from '../account/Suspended.tsx';
import { useAreas } from '../areas.ts';
import { PremiumBadge } from '../membership/index.ts';
import { NotificationBell, useNotificationHub, useUnreadTitle } from '../notifications/index.ts';
import { shellMenu } from '../pages.ts';
import * as styles from './Layout.module.css';

const narrow = () => typeof matchMedia === 'function' && matchMedia('(max-width: 767px)').matches;

const shellIcons = { 'layout-dashboard': LayoutDashboard, user: User, crown: Crown, bell: Bell };

/** A remote's menu icon, drawn from the elements its area.json carries (lucide's look: 24-unit grid, 2-unit stroke). */
function Drawing({ node }: { node: IconNode }) {
  return (
    <svg aria-hidden="true" width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      {node.map(([Tag, attrs], i) => (
        <Tag key={i} {...attrs} />
      ))}
    </svg>
  );
}

interface Entry {
  to: string;
  label: string;
  order: number;
  icon: React.ReactNode;
}

/**
 * The sidebar (spec 1 §2, "Dashboard area"): the shell's own entries and those the remotes declare,
 * in their order, each only for who may see it. While the remotes' declarations load (or when one
 * cannot be read) the others stand.
 */
function useMenu(): Entry[] {
  const rights = useSession();
  const areas = useAreas();
  const own = shellMenu.map((entry) => {
    const Icon = shellIcons[entry.icon];
    return { ...entry, icon: <Icon aria-hidden="true" size={20} /> };
  });
  const theirs = (areas.data?.areas ?? []).flatMap((area) => area.menu.map((entry) => ({ ...entry, icon: <Drawing node={entry.iconNode} /> })));
  return [...own, ...theirs]
    .filter((entry) => canSee(entry.audience, rights))
    .sort((a, b) => a.order - b.order || a.label.localeCompare(b.label, 'nl'));
}

/**
 * Checks the account status on entry (spec 1 §4, "Blocked"), and again when the tab comes back
 * into view; a failed check is only logged. Any call refused by a suspension also leads to /geblokkeerd
 * (SuspendedWatch in App.tsx).
 */
function useSuspendedRedirect(signedIn: boolean) {
  // useNavigate's function changes with every page; the check runs once on entering the dashboard.
  const navigate = useRef(useNavigate());
  const status = useApi(userApi.status, {}, { enabled: signedIn, staleTime: 0, refetchOnWindowFocus: true });
  useEffect(() => {
    if (status.isError) console.warn('Accountstatus controleren mislukt', status.error);
    if (!status.data?.blocked) return;
    const state: SuspendedState = { reason: status.data.reason ?? 'warnings', unblockDate: status.data.unblockDate };
    void navigate.current('/geblokkeerd', { replace: true, state });
  }, [status.data, status.isError, status.error]);
}

/** The dashboard frame: needs user and token (else /login) and an activated account. App shows a spinner until the session is checked. */
export function DashboardLayout() {
  const { isAuthenticated, isActivated, logout } = useSession();
  const menu = useMenu();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // On a small screen the open menu covers the page: it stays open only on the page it was opened
  // on, so a chosen entry (or any other way to a new page) closes it.
  const [menuState, setMenuState] = useState(() => ({ collapsed: narrow(), at: pathname }));
  const collapsed = menuState.collapsed || (menuState.at !== pathname && narrow());
  useSuspendedRedirect(isAuthenticated);
  // The bell's count: the API's at entry, then the hub's live figure (notifications/hub.ts).
  const unread = useApi(notificationApi.unreadCount, {}, { enabled: isAuthenticated });
  useNotificationHub(isAuthenticated);
  const unreadCount = isAuthenticated ? (unread.data?.count ?? 0) : 0;
  useUnreadTitle(unreadCount);

  if (!isAuthenticated) {
    // A suspension that just ended the session: why, rather than the login form.
    const suspension = endedBySuspension();
    const state: SuspendedState | undefined = suspension ? { reason: suspension.reason, unblockDate: suspension.unblockDate } : undefined;
    return <Navigate to={suspension ? '/geblokkeerd' : '/login'} state={state} replace />;
  }

  const signOff = async () => {
    await logout();
    navigate('/login');
  };

  return (
    <div className={collapsed ? styles.collapsed : styles.dashboard}>
      <nav className={styles.sidebar} aria-label="Dashboard">
        <div className={styles.top}>
          {/* Logo and badge share a box that wraps, so the toggle beside it never covers the badge (issue 27). */}
          <div className={styles.brand}>
            <NavLink to="/" className={styles.logo}>
              Ruilplein
            </NavLink>
            <PremiumBadge />
          </div>
          <button
            type="button"
            className={styles.toggle}
            aria-label={collapsed ? 'Menu openen' : 'Menu sluiten'}
            title={collapsed ? 'Menu openen' : 'Menu sluiten'}
            aria-expanded={!collapsed}
            aria-controls="dashboard-menu"
            onClick={() => setMenuState({ collapsed: !collapsed, at: pathname })}
          >
            {collapsed ? <Menu aria-hidden="true" size={20} /> : <PanelLeftClose aria-hidden="true" size={20} />}
          </button>
        </div>
        <div id="dashboard-menu" className={styles.menu} hidden={collapsed}>
          {menu.map((entry) => (
            <NavLink key={entry.to} to={entry.to} end={entry.to === '/dashboard'} className={styles.entry}>
              {entry.icon}
              <span>{entry.label}</span>
            </NavLink>
          ))}
          <button type="button" className={styles.logout} onClick={signOff}>
            Uitloggen
          </button>
        </div>
      </nav>
      <main className={styles.main}>
        <header className={styles.header}>
          <NotificationBell count={unreadCount} />
        </header>
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
