// The shell's own pages as data: their paths, their titles and descriptions (the <title>, meta
// description and Open Graph tags), which are prerendered at build time, and its sidebar entries.
// Plain data without React, so the prerender step and the browser checks read the same list the
// router is built from; the remotes declare theirs in their own `src/area.ts`.
import type { Audience, MenuEntry } from '@ruilplein/ui/area';

export interface ShellPage {
  path: string;
  /** The tab's title (and og:title). */
  title: string;
  /** Meta description and og:description: one or two sentences of what the page offers. */
  description: string;
  /** Who may open it: `guest` pages are public; `member` pages need a session (the dashboard); `admin` only admins. */
  access: 'guest' | 'member' | 'admin';
  /** HTML at build time, hydrated in the browser: the public pages and the sign-in screens. */
  prerender?: boolean;
  /** A path to visit it with in checks, when `path` is not one. */
  example?: string;
}

const site = 'Ruilplein';

export const shellPages: readonly ShellPage[] = [
  {
    path: '/',
    title: `${site}: ruil spullen en diensten met je buren`,
    description: 'Ruil spullen en diensten met mensen in je buurt, zonder geld. Plaats wat je over hebt, vind wat je zoekt en ruil veilig met buren.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/over-ons',
    title: `Over ons | ${site}`,
    description: 'Ruilplein brengt buren bij elkaar om spullen en diensten te ruilen, zonder dat er geld aan te pas komt.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/veelgestelde-vragen',
    title: `Veelgestelde vragen | ${site}`,
    description: 'Antwoorden op wat nieuwe ruilers het vaakst vragen: account, ruilen, Premium, veiligheid en beoordelingen.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/ruilen',
    title: `Hoe werkt ruilen? | ${site}`,
    description: 'Van account tot handdruk in vijf stappen: zo ruil je spullen en diensten met je buren op Ruilplein.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/ruilregels',
    title: `Ruilregels | ${site}`,
    description: 'Zeven afspraken die ruilen op Ruilplein eerlijk, veilig en leuk houden.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/algemene-voorwaarden',
    title: `Algemene voorwaarden | ${site}`,
    description: 'De voorwaarden waarmee je akkoord gaat als je een account op Ruilplein aanmaakt.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/privacyverklaring',
    title: `Privacyverklaring | ${site}`,
    description: 'Hoe Ruilplein met je gegevens omgaat: we bewaren niet meer dan nodig en verkopen niets.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/contact',
    title: `Contact | ${site}`,
    description: 'Een vraag, een idee of iets wat niet werkt? Mail Ruilplein, we antwoorden zo snel mogelijk.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/login',
    title: `Inloggen | ${site}`,
    description: 'Log in op Ruilplein om te ruilen met je buren, je aanbod te beheren en je ruilaanbiedingen te zien.',
    access: 'guest',
    prerender: true,
  },
  {
    path: '/register',
    title: `Registreren | ${site}`,
    description: 'Maak gratis een account op Ruilplein en ruil spullen en diensten met mensen in je buurt.',
    access: 'guest',
    prerender: true,
  },
  { path: '/verify-email', title: `E-mailadres bevestigen | ${site}`, description: 'Bevestig je e-mailadres om je Ruilplein-account te activeren.', access: 'guest' },
  { path: '/reset-password', title: `Wachtwoord vergeten | ${site}`, description: 'Vraag een link aan om een nieuw wachtwoord in te stellen.', access: 'guest' },
  { path: '/change-password', title: `Nieuw wachtwoord instellen | ${site}`, description: 'Stel een nieuw wachtwoord in voor je Ruilplein-account.', access: 'guest' },
  { path: '/geblokkeerd', title: `Account geblokkeerd | ${site}`, description: 'Je account is tijdelijk of blijvend geblokkeerd.', access: 'guest' },
  { path: '/dashboard', title: `Dashboard | ${site}`, description: 'Je overzicht op Ruilplein.', access: 'member' },
  { path: '/dashboard/profile', title: `Mijn profiel | ${site}`, description: 'Je profiel, je plaats en je statistieken.', access: 'member' },
  { path: '/dashboard/membership', title: `Lidmaatschap | ${site}`, description: 'Je lidmaatschap, Premium en de bevestiging van je e-mailadres.', access: 'member' },
  { path: '/dashboard/upgrade', title: `Word Premium | ${site}`, description: 'Wat Premium je geeft, wat het kost, en de betaling.', access: 'member' },
  { path: '/dashboard/upgrade/betaling', title: `Betaling | ${site}`, description: 'De uitkomst van je betaling voor Premium.', access: 'member' },
  { path: '/dashboard/upgrade/bedankt', title: `Bedankt | ${site}`, description: 'Bedankt voor je upgrade naar Premium.', access: 'member' },
  { path: '/dashboard/notifications', title: `Meldingen | ${site}`, description: 'Je meldingen en hoe je er e-mail over krijgt.', access: 'member' },
];

/** The shell's own sidebar entries; the remotes add theirs (their `area.ts`), sorted together by `order`. */
export const shellMenu: readonly (Omit<MenuEntry, 'icon'> & { icon: 'layout-dashboard' | 'user' | 'crown' | 'bell'; audience: Audience })[] = [
  { to: '/dashboard', label: 'Dashboard', icon: 'layout-dashboard', order: 0, audience: 'member' },
  { to: '/dashboard/membership', label: 'Lidmaatschap', icon: 'crown', order: 80, audience: 'member' },
  { to: '/dashboard/notifications', label: 'Meldingen', icon: 'bell', order: 85, audience: 'member' },
  { to: '/dashboard/profile', label: 'Mijn profiel', icon: 'user', order: 90, audience: 'member' },
];

export const pageAt = (path: string) => shellPages.find((page) => page.path === path);
