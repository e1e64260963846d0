import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  Beer, Handshake, HeartHandshake, Leaf, MapPin, MessageCircle, Package, Quote, ShieldCheck, Sparkles, UserPlus, Wrench,
} from 'lucide-react';
import { buttonClass, SearchBox, useSession } from '@ruilplein/ui';
import { loginReturningTo } from '../account/returnTo.ts';
import { ExampleCarousel } from './ExampleCarousel.tsx';
import { IconRing } from './IconRing.tsx';
import { RecentListings } from './RecentListings.tsx';
import * as styles from './Landing.module.css';

const tradeTypes = [
  { icon: Package, title: 'Goederen voor goederen', text: 'Ruil je boekenkast, fiets of kinderkleding tegen iets wat jij wel kunt gebruiken.' },
  { icon: Wrench, title: 'Dienst voor dienst', text: 'Jij repareert een lekke band, je buur helpt met je cv of de tuin. Tijd tegen tijd.' },
  { icon: HeartHandshake, title: 'Dienst plus goederen', text: 'Bijles in ruil voor een stapel spelletjes? Diensten en spullen mogen samen in één ruil.' },
];

const steps = [
  { title: 'Maak een account', text: 'Registreer je gratis en bevestig je e-mailadres.' },
  { title: 'Plaats je aanbod', text: "Zet je spullen of je dienst online, met een beschrijving en foto's." },
  { title: 'Vind een match en chat', text: 'Doe een ruilvoorstel uit je eigen inventaris; de chat opent vanzelf.' },
  { title: 'Ruil lokaal', text: 'Spreek af en ruil bij jou in de buurt, diensten ook online. Jullie bevestigen allebei.' },
];

const reasons = [
  { icon: Sparkles, title: 'Helemaal gratis', text: 'Er gaat geen geld om: je betaalt niets om te ruilen en er staat geen reclame op de site.' },
  { icon: Leaf, title: 'Duurzaam', text: 'Wat jij niet meer gebruikt, krijgt bij een ander een tweede leven in plaats van een plek bij het grofvuil.' },
  { icon: MapPin, title: 'Dicht bij huis', text: 'Je ziet aanbod in je eigen buurt, dus ophalen en ruilen is zo gebeurd.' },
  { icon: Beer, title: 'Altijd iets te bieden', text: "Niets in je inventaris? Iedereen heeft standaard een 'Krat Bier' om mee te ruilen." },
  { icon: ShieldCheck, title: 'Veilig', text: 'Misbruik meld je met één klik; moderators waarschuwen en blokkeren waar nodig.' },
  { icon: Handshake, title: 'Sociaal', text: 'Elke ruil is een kennismaking met iemand uit je buurt, en reviews laten zien wie je kunt vertrouwen.' },
];

// Our own, written for this page: no real members are quoted.
const testimonials = [
  { quote: 'Mijn oude racefiets stond al jaren in de schuur. Nu fietst de buurjongen ermee en heb ik een mooie plantenkast terug.', name: 'Marieke', place: 'Utrecht' },
  { quote: 'Ik help mensen met hun laptop en krijg er bijles Spaans voor terug. Zonder dat er een euro aan te pas komt.', name: 'Youssef', place: 'Rotterdam' },
  { quote: 'Met twee kleine kinderen groeit alles te snel. Via Ruilplein ruil ik kleding en speelgoed met ouders uit de wijk.', name: 'Sanne', place: 'Gent' },
];

/** The search page with these words; a guest logs in first and comes back to it (issue 23). */
function LandingSearch() {
  const [q, setQ] = useState('');
  const navigate = useNavigate();
  const { isAuthenticated } = useSession();
  const search = (words: string) => {
    const path = words ? `/dashboard/search?${new URLSearchParams({ q: words })}` : '/dashboard/search';
    void navigate(isAuthenticated ? path : loginReturningTo(path));
  };
  return (
    <div className={styles.search}>
      <SearchBox label="Zoek in het aanbod bij jou in de buurt" showLabel value={q} onChange={setQ} onSearch={search} />
    </div>
  );
}

/** The landing page (spec 1 §2, "/"). */
export function Landing() {
  return (
    <div>
      <section className={styles.hero} data-testid="hero">
        <div>
          <h1>Ruil spullen en diensten met je buren</h1>
          <p>
            Zonder geld, zonder reclame, gewoon gratis: geef wat je niet meer gebruikt een tweede leven en vind wat je zoekt bij
            jou in de buurt.
          </p>
          <LandingSearch />
          <div className={styles.actions}>
            {/* A newcomer has no account yet: registration, which links to /login for members (issue 27). */}
            <Link to="/register" className={buttonClass()}>
              Begin met ruilen
            </Link>
            <Link to="/login" className={buttonClass('secondary')}>
              Plaats een dienst
            </Link>
          </div>
        </div>
        <IconRing />
      </section>

      <RecentListings className={styles.alt} />

      <section className={styles.section} aria-labelledby="soorten">
        <h2 id="soorten">Wat kun je ruilen?</h2>
        <ul className={styles.cards}>
          {tradeTypes.map(({ icon: Icon, title, text }) => (
            <li key={title} className={styles.card}>
              <Icon aria-hidden="true" size={32} />
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.alt} aria-labelledby="hoe">
        <h2 id="hoe">Hoe werkt het?</h2>
        <ol className={styles.steps}>
          {steps.map(({ title, text }) => (
            <li key={title}>
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ol>
        <p className={styles.outro}>
          <UserPlus aria-hidden="true" size={18} /> Alleen geregistreerde leden kunnen ruilen.{' '}
          <Link to="/ruilen">Lees hoe ruilen werkt</Link>
        </p>
      </section>

      <section className={styles.section} aria-labelledby="waarom">
        <h2 id="waarom">Waarom Ruilplein?</h2>
        <ul className={styles.wide}>
          {reasons.map(({ icon: Icon, title, text }) => (
            <li key={title} className={styles.card}>
              <Icon aria-hidden="true" size={28} />
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <div className={styles.alt}>
        <ExampleCarousel />
      </div>

      <section className={styles.section} aria-labelledby="ervaringen">
        <h2 id="ervaringen">Wat ruilers zeggen</h2>
        <ul className={styles.cards}>
          {testimonials.map(({ quote, name, place }) => (
            <li key={name} className={`${styles.card} ${styles.testimonial}`}>
              <figure>
                <Quote aria-hidden="true" size={24} />
                <blockquote>{quote}</blockquote>
                <figcaption>
                  {name}, {place}
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <p className={styles.outro}>
          <MessageCircle aria-hidden="true" size={18} /> Vragen? <Link to="/veelgestelde-vragen">Bekijk de veelgestelde vragen</Link>
        </p>
      </section>
    </div>
  );
}
