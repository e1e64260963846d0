import { NavLink, Outlet } from 'react-router-dom';
import { Page } from '@ruilplein/ui';

// Sidebar of the dashboard area (spec 1 §2, "Dashboard area"). The admin entry shows for admins
// only once there is a session to tell; logout and the collapsed mobile sidebar come with it.
const entries = [
  ['/dashboard', 'Dashboard'],
  ['/dashboard/search', 'Aanbod'],
  ['/dashboard/services', 'Ruil-diensten'],
  ['/dashboard/my-listings', 'Mijn Listings'],
  ['/dashboard/wishlist', 'Verlanglijstje'],
  ['/dashboard/offers', 'Ruilaanbiedingen'],
  ['/dashboard/membership', 'Lidmaatschap'],
  ['/dashboard/profile', 'Mijn profiel'],
  ['/admin', 'Adminpaneel'],
] as const;

export function DashboardLayout() {
  return (
    <div className="dashboard">
      <nav className="sidebar" aria-label="Dashboard">
        <NavLink to="/" className="logo">
          Ruilplein
        </NavLink>
        {entries.map(([to, label]) => (
          <NavLink key={to} to={to} end={to === '/dashboard'}>
            {label}
          </NavLink>
        ))}
      </nav>
      <main className="dashboard-main">
        <Outlet />
      </main>
    </div>
  );
}

export function DashboardHome() {
  return (
    <Page title="Dashboard">
      <p>Welkom bij Ruilplein. Kies links wat je wilt doen.</p>
    </Page>
  );
}
