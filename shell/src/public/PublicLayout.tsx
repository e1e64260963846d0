import { Link, NavLink, Outlet } from 'react-router-dom';
import { Mail } from 'lucide-react';
import { AccountMenu } from './AccountMenu.tsx';
import { Logo } from './Logo.tsx';
import { contactEmail } from './site.ts';
import './public.css';

/**
 * Header and footer of the public pages (spec 1 §2, "Navigation bar" and "Footer"). Only the public
 * routes render inside it, so the sign-in, blocked, dashboard and admin screens never show them.
 */
export function PublicLayout() {
  return (
    <div className="public">
      <a className="skip-link" href="#inhoud">
        Naar de inhoud
      </a>
      <header className="public-nav">
        <Link to="/" className="logo" aria-label="Ruilplein, naar de homepage">
          <Logo />
        </Link>
        <nav aria-label="Hoofdmenu" className="public-links">
          <NavLink to="/" end>
            HOME
          </NavLink>
          <NavLink to="/over-ons">OVER ONS</NavLink>
          <NavLink to="/veelgestelde-vragen">FAQ</NavLink>
        </nav>
        <AccountMenu />
      </header>
      <main id="inhoud" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

const columns = [
  {
    title: 'Over Ruilplein',
    links: [
      ['/over-ons', 'Over ons'],
      ['/ruilen', 'Hoe ruilen werkt'],
      ['/ruilregels', 'Ruilregels'],
    ],
  },
  {
    title: 'Handige links',
    links: [
      ['/veelgestelde-vragen', 'Veelgestelde vragen'],
      ['/algemene-voorwaarden', 'Algemene voorwaarden'],
      ['/privacyverklaring', 'Privacyverklaring'],
    ],
  },
] as const;

function Footer() {
  return (
    <footer className="public-footer">
      <section className="footer-banner" aria-labelledby="footer-banner-title">
        <h2 id="footer-banner-title">Begin nu met ruilen!</h2>
        <p>Gratis, zonder geld en dicht bij huis: geef je spullen een tweede leven.</p>
        <div className="actions">
          <Link to="/register" className="button">
            Registreren
          </Link>
          <Link to="/contact" className="button secondary">
            Neem contact op!
          </Link>
        </div>
      </section>
      <div className="footer-columns">
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2>{column.title}</h2>
            <ul>
              {column.links.map(([to, label]) => (
                <li key={to}>
                  <Link to={to}>{label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <section aria-labelledby="footer-contact-title">
          <h2 id="footer-contact-title">Contact</h2>
          <ul>
            <li>
              <a href={`mailto:${contactEmail}`}>
                <Mail aria-hidden="true" size={16} /> {contactEmail}
              </a>
            </li>
            <li>
              <Link to="/contact">Contactpagina</Link>
            </li>
          </ul>
        </section>
      </div>
      <p className="copyright">© {new Date().getFullYear()} Ruilplein. Alle rechten voorbehouden.</p>
    </footer>
  );
}
