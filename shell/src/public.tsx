import { Link, NavLink, Outlet } from 'react-router-dom';
import { Page, useSession } from '@ruilplein/ui';

/** Header of the public pages (spec 1 §2, "Navigation bar"); the account dropdown comes with the accounts work. */
export function PublicLayout() {
  const { user } = useSession();
  return (
    <>
      <header className="public-nav">
        <Link to="/" className="logo">
          Ruilplein
        </Link>
        <nav aria-label="Hoofdmenu">
          <NavLink to="/" end>
            HOME
          </NavLink>
          <NavLink to="/over-ons">OVER ONS</NavLink>
          <NavLink to="/veelgestelde-vragen">FAQ</NavLink>
        </nav>
        <span className="account">{user?.firstName ?? 'Gast'}</span>
      </header>
      <main>
        <Outlet />
      </main>
    </>
  );
}

export function Landing() {
  return (
    <section className="hero">
      <h1>Ruil spullen en diensten met je buren</h1>
      <p>Zonder geld: geef wat je niet meer gebruikt een tweede leven en vind wat je zoekt in je buurt.</p>
      <div className="hero-actions">
        <Link to="/login" className="button">
          Begin met ruilen
        </Link>
        <Link to="/login" className="button secondary">
          Bied een dienst aan
        </Link>
      </div>
    </section>
  );
}

export function NotFound() {
  return (
    <Page title="Pagina niet gevonden">
      <p>
        Deze pagina bestaat niet (meer). <Link to="/">Naar de homepage</Link>
      </p>
    </Page>
  );
}
