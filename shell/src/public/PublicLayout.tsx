import { Link, NavLink, Outlet } from 'react-router-dom';
import { Mail } from 'lucide-react';
import { AccountMenu } from './AccountMenu.tsx';
import { Logo } from './Logo.tsx';
import { contactEmail } from './site.ts';
import { buttonClass } from '@ruilplein/ui';
import * as logo from './Logo.module.css';
import * as styles from './PublicLayout.module.css';

/**
 * Header and footer of the public pages (spec 1 §2, "Navigation bar" and "Footer"). Only the public
 * routes render inside it, so the sign-in, suspension (/geblokkeerd), dashboard and admin screens never show them.
 */
export function PublicLayout() {
  return (
    <div className={styles.frame}>
      <a className={styles.skipLink} href="#inhoud">
        Naar de inhoud
      </a>
      <header className={styles.nav}>
        <Link to="/" className={logo.logo} aria-label="Ruilplein, naar de homepage">
          <Logo />
        </Link>
        <nav aria-label="Hoofdmenu" className={styles.links}>
          <NavLink to="/" end>
            HOME
          </NavLink>
          <NavLink to="/over-ons">OVER ONS</NavLink>
          <NavLink to="/veelgestelde-vragen">FAQ</NavLink>
        </nav>
        <AccountMenu />
      </header>
      <main id="inhoud" className={styles.main} tabIndex={-1}>
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
    <footer className={styles.footer}>
      <section className={styles.banner} aria-labelledby="footer-banner-title">
        <h2 id="footer-banner-title">Begin nu met ruilen!</h2>
        <p>Gratis, zonder geld en dicht bij huis: geef je spullen een tweede leven.</p>
        <div className={styles.actions}>
          <Link to="/register" className={buttonClass()}>
            Registreren
          </Link>
          <Link to="/contact" className={`${buttonClass()} ${styles.outlined}`}>
            Neem contact op!
          </Link>
        </div>
      </section>
      <div className={styles.columns}>
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
      {/* The prerendered year is the build's: across New Year the browser's may differ, which is fine. */}
      <p className={styles.copyright} suppressHydrationWarning>
        © {new Date().getFullYear()} Ruilplein. Alle rechten voorbehouden.
      </p>
    </footer>
  );
}
