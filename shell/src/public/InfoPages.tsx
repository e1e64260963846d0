import { Link } from 'react-router-dom';
import { Mail } from 'lucide-react';
import { buttonClass } from '@ruilplein/ui';
import { RELIABILITY_ANSWER_HOURS, RELIABILITY_MIN_SAMPLE, RELIABILITY_SAME_MEMBER_DAYS } from '@ruilplein/contracts/browser';
import { ContentPage, QuestionList, type QuestionAndAnswer } from './ContentPage.tsx';
import * as styles from './ContentPage.module.css';
import { contactEmail } from './site.ts';

/** /over-ons */
export function AboutPage() {
  return (
    <ContentPage title="Over ons" intro="Ruilplein brengt buren bij elkaar om spullen en diensten te ruilen, zonder dat er geld aan te pas komt.">
      <h2>Waarom we Ruilplein maakten</h2>
      <p>
        In bijna elk huis staan spullen die niemand meer gebruikt, terwijl iemand een straat verderop precies dat zoekt. En
        iedereen kan wel iets: een band plakken, een cv nalezen, de tuin bijhouden. Ruilplein maakt die spullen en talenten
        zichtbaar in je eigen buurt, zodat ze een tweede leven krijgen in plaats van weggegooid te worden.
      </p>
      <h2>Waar we voor staan</h2>
      <ul>
        <li>
          <strong>Duurzaam:</strong> hergebruik is beter dan nieuw kopen.
        </li>
        <li>
          <strong>Gratis:</strong> ruilen kost niets en er gaat bij een ruil nooit geld om.
        </li>
        <li>
          <strong>Sociaal:</strong> elke ruil is een ontmoeting met iemand uit je buurt.
        </li>
        <li>
          <strong>Zonder reclame:</strong> je ziet op Ruilplein geen advertenties en we verkopen je gegevens niet.
        </li>
      </ul>
      <h2>Hoe we rondkomen</h2>
      <p>
        Wie meer wil, kan Premium nemen voor € 2,49 per maand: onbeperkt listings en ruilverzoeken, een premiumbadge, exclusieve
        categorieën en nieuwe listings eerder zien. Daarmee betalen we de servers; ruilen blijft voor iedereen gratis.
      </p>
      <h2>Samen veilig</h2>
      <p>
        Ruilen werkt op vertrouwen. Na een ruil geven jullie elkaar een review, misbruik meld je met één klik en onze moderators
        grijpen in waar nodig. Lees de <Link to="/ruilregels">ruilregels</Link> of <Link to="/contact">neem contact op</Link>.
      </p>
    </ContentPage>
  );
}

const swapQuestions: QuestionAndAnswer[] = [
  {
    question: 'Moet ik iets terug kunnen geven?',
    answer: (
      <p>
        Ja, elk voorstel bevat iets uit je eigen inventaris. Heb je nog niets geplaatst, dan bied je de 'Krat Bier' aan die
        iedereen standaard heeft.
      </p>
    ),
  },
  {
    question: 'Kan ik een voorstel nog veranderen?',
    answer: <p>Zolang jullie de ruil nog niet allebei hebben bevestigd, kun je je voorstel aanpassen of intrekken.</p>,
  },
  {
    question: 'Hoeveel ruilverzoeken mag ik doen?',
    answer: <p>Met een standaardaccount 2 per dag; met Premium onbeperkt en zonder wachttijd ertussen.</p>,
  },
  {
    question: 'Wat als de ruil niet doorgaat?',
    answer: (
      <p>
        Trek je voorstel in of wijs het voorstel van de ander af. Houdt iemand zich niet aan de afspraak of aan de regels, meld
        hem dan; onze moderators kijken ernaar.
      </p>
    ),
  },
];

/** /ruilen: how swapping works, with questions. */
export function SwapPage() {
  return (
    <ContentPage title="Hoe werkt ruilen?" intro="Van account tot handdruk in vijf stappen. Alleen geregistreerde leden kunnen ruilen.">
      <h2>Drie soorten ruil</h2>
      <ul>
        <li>
          <strong>Goederen voor goederen:</strong> spullen tegen spullen.
        </li>
        <li>
          <strong>Dienst voor dienst:</strong> jouw hulp tegen die van een ander.
        </li>
        <li>
          <strong>Dienst plus goederen:</strong> een dienst en spullen samen in één ruil.
        </li>
      </ul>
      <h2>Stap voor stap</h2>
      <ol className={styles.numbered}>
        <li>
          <strong>Maak een account</strong> en bevestig je e-mailadres via de link in je mail.
        </li>
        <li>
          <strong>Plaats wat je aanbiedt:</strong> een titel, een beschrijving, de categorie en foto's. Met een standaardaccount
          heb je tot 5 actieve listings.
        </li>
        <li>
          <strong>Zoek in je buurt</strong> naar aanbod en zet wat je graag wilt hebben op je verlanglijstje.
        </li>
        <li>
          <strong>Doe een ruilvoorstel</strong> met iets uit je eigen inventaris, of met de 'Krat Bier'. Er opent vanzelf een chat
          waarin jullie afspreken.
        </li>
        <li>
          <strong>Ruil en bevestig:</strong> ruil bij jou in de buurt (diensten ook online). De ruil is rond als jullie allebei
          bevestigen; daarna geven jullie elkaar een review.
        </li>
      </ol>
      <h2>Vragen over ruilen</h2>
      <QuestionList items={swapQuestions} level={3} />
      <p>
        Meer antwoorden vind je bij de <Link to="/veelgestelde-vragen">veelgestelde vragen</Link>.
      </p>
    </ContentPage>
  );
}

const rules = [
  ['Alleen ruilen, nooit betalen', 'Op Ruilplein gaat geen geld om. Vraag of bied geen geld, ook niet als bijbetaling.'],
  ['Bied alleen aan wat van jou is', 'Plaats alleen spullen die je zelf mag weggeven en diensten die je zelf kunt leveren.'],
  ['Beschrijf eerlijk', "Laat in tekst en foto's zien hoe iets er echt bij staat, met eventuele gebreken."],
  ['Geen verboden of gevaarlijke zaken', 'Geen wapens, drugs, medicijnen, namaak, gestolen goederen of iets anders wat de wet verbiedt.'],
  ['Respecteer elkaar', 'Blijf vriendelijk in de chat. Intimidatie, discriminatie en spam zijn niet toegestaan.'],
  ['Kom je afspraken na', 'Bevestig een ruil pas als die echt gebeurd is, en laat het weten als je niet kunt komen.'],
  [
    'Meld misbruik',
    'Zie je iets wat niet klopt? Meld het. Moderators kunnen waarschuwen en blokkeren; wie in korte tijd te veel waarschuwingen krijgt, wordt tijdelijk geblokkeerd.',
  ],
] as const;

/** /ruilregels: 7 rules. */
export function RulesPage() {
  return (
    <ContentPage title="Ruilregels" intro="Zeven afspraken die ruilen op Ruilplein eerlijk, veilig en leuk houden.">
      <ol className={styles.rules} data-testid="rules">
        {rules.map(([title, text]) => (
          <li key={title}>
            <h2>{title}</h2>
            <p>{text}</p>
          </li>
        ))}
      </ol>
      <section id="betrouwbaarheid" aria-labelledby="betrouwbaarheid-title">
        <h2 id="betrouwbaarheid-title">Hoe we betrouwbaarheid laten zien</h2>
        <p>
          Op profielen en aanbiedingen staat een regel als ‘Reageert meestal binnen 3 uur · 95% afgerond (20 ruilen)’. Die komt uit wat ruilpartners van
          iemand zagen, niet uit een oordeel van ons:
        </p>
        <ul>
          <li>
            <strong>Reageert meestal binnen…</strong>: de middelste tijd tussen het ontvangen van een aanbod en het eerste antwoord (accepteren of afwijzen),
            over de laatste honderd antwoorden. Wie binnen {RELIABILITY_ANSWER_HOURS} uur antwoordt, antwoordt op tijd; een aanbod dat langer open blijft,
            telt als niet beantwoord. Een aanbod dat de afzender binnen {RELIABILITY_ANSWER_HOURS} uur intrekt, telt niet mee.
          </li>
          <li>
            <strong>% afgerond</strong>: van de geaccepteerde ruilen die eindigden, het deel dat voltooid werd en niet door dit lid werd afgebroken (bijvoorbeeld
            door de ander te blokkeren).
          </li>
          <li>
            <strong>ruilen</strong>: voltooide ruilen; met hetzelfde lid telt één ruil per {RELIABILITY_SAME_MEMBER_DAYS} dagen.
          </li>
        </ul>
        <p>Bij minder dan {RELIABILITY_MIN_SAMPLE} aanbiedingen staat er ‘Nieuw lid’. Alles wordt bijgewerkt zodra er iets gebeurt, niet één keer per nacht.</p>
      </section>
    </ContentPage>
  );
}

/** /contact: the mail address only (spec 1 §2). */
export function ContactPage() {
  return (
    <ContentPage title="Contact" intro="Een vraag, een idee of iets wat niet werkt? Mail ons, we antwoorden zo snel mogelijk.">
      <p>
        <a className={`${buttonClass()} ${styles.mailButton}`} href={`mailto:${contactEmail}`}>
          <Mail aria-hidden="true" size={20} /> {contactEmail}
        </a>
      </p>
    </ContentPage>
  );
}
