import { useState, type ReactNode } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { Flag, LayoutDashboard, LogOut, Menu, PanelLeftClose, Repeat, Users } from 'lucide-react';
import { useSession } from '@ruilplein/ui';
import * as styles from './AdminLayout.module.css';

const narrow = () => typeof matchMedia === 'function' && matchMedia('(max-width: 767px)').matches;

const entries = [
  { to: '/admin', label: 'Dashboard', Icon: LayoutDashboard, end: true },
  { to: '/admin/users', label: 'Gebruikers', Icon: Users, end: false },
  { to: '/admin/reports', label: 'Rapporten', Icon: Flag, end: false },
  { to: '/dashboard', label: 'Ruilplein', Icon: Repeat, end: true },
];

/** The admin layout (spec 2 §2): its sidebar starts collapsed under 768 px; a chosen entry closes it there. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Under 768 px the menu stays open only on the page it was opened on: a chosen entry closes it.
  const [menu, setMenu] = useState(() => ({ collapsed: narrow(), at: pathname }));
  const collapsed = menu.collapsed || (menu.at !== pathname && narrow());

  const signOff = async () => {
    await logout();
    navigate('/login');
  };

  return (
    <div className={collapsed ? styles.collapsed : styles.frame}>
      <nav className={styles.sidebar} aria-label="Beheer">
        <div className={styles.top}>
          <span className={styles.brand}>Beheer</span>
          <button
            type="button"
            className={styles.toggle}
            aria-label={collapsed ? 'Menu openen' : 'Menu sluiten'}
            title={collapsed ? 'Menu openen' : 'Menu sluiten'}
            aria-expanded={!collapsed}
            aria-controls="admin-menu"
            onClick={() => setMenu({ collapsed: !collapsed, at: pathname })}
          >
            {collapsed ? <Menu aria-hidden="true" size={20} /> : <PanelLeftClose aria-hidden="true" size={20} />}
          </button>
        </div>
        <div id="admin-menu" className={styles.menu} hidden={collapsed}>
          {entries.map(({ to, label, Icon, end }) => (
            <NavLink key={to} to={to} end={end} className={styles.entry}>
              <Icon aria-hidden="true" size={20} />
              <span>{label}</span>
            </NavLink>
          ))}
          <button type="button" className={styles.entry} onClick={signOff}>
            <LogOut aria-hidden="true" size={20} />
            <span>Uitloggen</span>
          </button>
        </div>
      </nav>
      <div className={styles.main}>{children}</div>
    </div>
  );
}
