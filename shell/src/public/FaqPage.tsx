import { Link } from 'react-router-dom';
import { ContentPage, QuestionList, type QuestionAndAnswer } from './ContentPage.tsx';
import { contactEmail } from './site.ts';

const questions: QuestionAndAnswer[] = [
  {
    question: 'Kost Ruilplein geld?',
    answer: (
      <p>
        Nee. Ruilen is gratis en er gaat bij een ruil nooit geld om. Wie meer wil, kan Premium nemen voor € 2,49 per maand, maar
        dat is nooit nodig om te ruilen.
      </p>
    ),
  },
  {
    question: 'Wie kan er ruilen?',
    answer: (
      <p>
        Iedereen met een account waarvan het e-mailadres bevestigd is. Als gast kun je rondkijken op deze pagina's;{' '}
        <Link to="/register">registreer je</Link> om zelf te ruilen.
      </p>
    ),
  },
  {
    question: 'Wat kan ik ruilen?',
    answer: (
      <p>
        Spullen tegen spullen, een dienst tegen een dienst, of een dienst samen met spullen. Denk aan kleding, boeken,
        elektronica, planten, maar ook bijles, klussen of hulp in de tuin. Wat niet mag, staat in de{' '}
        <Link to="/ruilregels">ruilregels</Link>.
      </p>
    ),
  },
  {
    question: "Wat is de 'Krat Bier'?",
    answer: (
      <p>
        Elk lid heeft standaard een 'Krat Bier' in zijn inventaris. Bij elk ruilvoorstel bied je iets uit je eigen inventaris
        aan; heb je (nog) niets geplaatst, dan kun je de krat bier aanbieden.
      </p>
    ),
  },
  {
    question: 'Wanneer is een ruil rond?',
    answer: (
      <p>
        Pas als jullie allebei de ruil bevestigen. Tot dat moment kun je je voorstel nog aanpassen of intrekken.
      </p>
    ),
  },
  {
    question: 'Hoe spreek ik iets af met de ander?',
    answer: (
      <p>
        Zodra je op een aanbod reageert of een ruilvoorstel krijgt, opent er vanzelf een chat. Daarin spreken jullie af waar en
        wanneer jullie ruilen. Spullen ruil je bij jou in de buurt, diensten kunnen ook online.
      </p>
    ),
  },
  {
    question: 'Hoeveel kan ik plaatsen en aanbieden?',
    answer: (
      <p>
        Met een standaardaccount heb je tot 5 actieve listings tegelijk en doe je 2 ruilverzoeken per dag. Met Premium zijn
        beide onbeperkt.
      </p>
    ),
  },
  {
    question: 'Wat krijg ik met Premium?',
    answer: (
      <ul>
        <li>onbeperkt listings en ruilverzoeken, zonder wachttijd tussen verzoeken;</li>
        <li>een premiumbadge bij je aanbod;</li>
        <li>exclusieve categorieën, zoals vinyl, smartwatches en gitaren;</li>
        <li>voorrang bij trending items in je buurt;</li>
        <li>nieuwe listings 6 uur eerder zien.</li>
      </ul>
    ),
  },
  {
    question: 'Kan ik Premium opzeggen?',
    answer: (
      <p>
        Ja, op elk moment via Lidmaatschap in je dashboard. Het abonnement wordt elke maand automatisch verlengd tot je opzegt;
        na het opzeggen houd je Premium tot het einde van de lopende maand.
      </p>
    ),
  },
  {
    question: 'Wat doe ik als iemand zich niet aan de regels houdt?',
    answer: (
      <p>
        Meld de gebruiker of de listing via de meldknop. Onze moderators bekijken elke melding en kunnen waarschuwen of een account
        tijdelijk of voorgoed blokkeren. Is er iets anders? Mail ons op <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
      </p>
    ),
  },
];

/** /veelgestelde-vragen: 10 questions (spec 1 §2). */
export function FaqPage() {
  return (
    <ContentPage title="Veelgestelde vragen" intro="De antwoorden op wat nieuwe ruilers ons het vaakst vragen. Klik op een vraag om het antwoord te zien.">
      <QuestionList items={questions} level={2} />
    </ContentPage>
  );
}
