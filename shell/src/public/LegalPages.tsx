import { Link } from 'react-router-dom';
import { ContentPage } from './ContentPage.tsx';
import * as styles from './ContentPage.module.css';
import { contactEmail } from './site.ts';

const mail = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

/** /algemene-voorwaarden: 8 sections. */
export function TermsPage() {
  return (
    <ContentPage title="Algemene voorwaarden" intro="Door een account aan te maken ga je akkoord met deze voorwaarden.">
      <section>
        <h2>1. Over Ruilplein</h2>
        <p>
          Ruilplein is een online platform waarop leden spullen en diensten met elkaar ruilen, zonder geld. Ruilplein brengt leden
          met elkaar in contact; de ruil zelf is een afspraak tussen de leden.
        </p>
      </section>
      <section>
        <h2>2. Je account</h2>
        <p>
          Je hebt een account nodig om te ruilen. Je geeft ons juiste gegevens, bevestigt je e-mailadres en houdt je wachtwoord
          geheim. Je bent verantwoordelijk voor wat er met je account gebeurt. Eén persoon, één account.
        </p>
      </section>
      <section>
        <h2>3. Ruilen</h2>
        <p>
          Bij elk ruilvoorstel bied je iets uit je eigen inventaris aan, of de 'Krat Bier' die elk lid standaard heeft. Een ruil
          is pas rond als beide leden hem bevestigen; tot dan kan een voorstel worden aangepast of ingetrokken. Er wordt bij een
          ruil nooit geld betaald.
        </p>
      </section>
      <section>
        <h2>4. Wat je plaatst</h2>
        <p>
          Je bent verantwoordelijk voor je listings, foto's, chatberichten en reviews. Ze zijn eerlijk, van jou en houden zich aan
          de <Link to="/ruilregels">ruilregels</Link> en de wet. Je geeft Ruilplein toestemming ze op het platform te tonen
          zolang ze online staan.
        </p>
      </section>
      <section>
        <h2>5. Standaard en Premium</h2>
        <p>
          Een standaardaccount is gratis, met tot 5 actieve listings en 2 ruilverzoeken per dag. Premium kost € 2,49 per maand,
          wordt elke maand automatisch verlengd en is op elk moment op te zeggen; je houdt Premium dan tot het einde van de
          lopende maand.
        </p>
      </section>
      <section>
        <h2>6. Meldingen, waarschuwingen en blokkades</h2>
        <p>
          Leden kunnen misbruik melden. Moderators kunnen een lid waarschuwen en een account tijdelijk of voorgoed blokkeren of
          content verwijderen als iemand deze voorwaarden of de ruilregels overtreedt. Wie in korte tijd te veel waarschuwingen
          krijgt, wordt automatisch tijdelijk geblokkeerd.
        </p>
      </section>
      <section>
        <h2>7. Aansprakelijkheid</h2>
        <p>
          Ruilplein is geen partij bij een ruil en staat niet in voor de staat van spullen of de kwaliteit van diensten. We doen
          ons best het platform goed te laten werken, maar kunnen niet beloven dat het altijd foutloos beschikbaar is.
        </p>
      </section>
      <section>
        <h2>8. Wijzigingen en contact</h2>
        <p>
          We kunnen deze voorwaarden aanpassen; de nieuwste versie staat altijd op deze pagina. Je kunt je account
          altijd laten verwijderen. Vragen over deze voorwaarden? Mail naar {mail}.
        </p>
      </section>
    </ContentPage>
  );
}

/** /privacyverklaring: 9 sections, last changed 18 April 2025 (spec 1 §2). */
export function PrivacyPage() {
  return (
    <ContentPage title="Privacyverklaring" intro="Hoe Ruilplein met je gegevens omgaat. We bewaren niet meer dan nodig en verkopen niets.">
      <p className={styles.updated}>
        Laatst gewijzigd: <time dateTime="2025-04-18">18 april 2025</time>
      </p>
      <section>
        <h2>1. Wie we zijn</h2>
        <p>Ruilplein is verantwoordelijk voor de verwerking van je persoonsgegevens op dit platform. Je bereikt ons via {mail}.</p>
      </section>
      <section>
        <h2>2. Welke gegevens we verwerken</h2>
        <ul>
          <li>je voornaam, achternaam, e-mailadres en een versleutelde vorm van je wachtwoord;</li>
          <li>je woonplaats, als je die opgeeft, en de coördinaten van die plaats (niet je adres);</li>
          <li>je profielfoto, zonder de metagegevens (zoals locatie) van het originele bestand;</li>
          <li>je listings en foto's, ruilvoorstellen, chatberichten, reviews en meldingen;</li>
          <li>bij Premium: de status en periode van je abonnement (je betaalgegevens ziet alleen de betaalprovider).</li>
        </ul>
      </section>
      <section>
        <h2>3. Waarvoor we ze gebruiken</h2>
        <p>
          Om je account te beheren, aanbod in je buurt te tonen en afstanden te berekenen, ruilen en chatten mogelijk te maken, je
          Premium-abonnement te regelen en misbruik tegen te gaan.
        </p>
      </section>
      <section>
        <h2>4. Op welke grond</h2>
        <p>
          We verwerken je gegevens om de overeenkomst met jou uit te voeren (je account en het ruilen) en vanuit ons
          gerechtvaardigd belang om het platform veilig te houden.
        </p>
      </section>
      <section>
        <h2>5. Wie je gegevens ziet</h2>
        <p>
          Andere leden zien je voornaam, achternaam, profielfoto, woonplaats, je aanbod en je reviews, nooit je e-mailadres of
          coördinaten. Je woonplaats zoeken we op in onze eigen plaatsenlijst, dus die gaat niet naar een andere dienst. Voor
          betalingen gebruiken we een betaalprovider; we verkopen geen gegevens en tonen geen advertenties.
        </p>
      </section>
      <section>
        <h2>6. Hoe lang we ze bewaren</h2>
        <p>
          Zolang je account bestaat. Een account dat 24 maanden niet is gebruikt, verwijderen we automatisch, met de gegevens die
          erbij horen.
        </p>
      </section>
      <section>
        <h2>7. Beveiliging</h2>
        <p>
          Wachtwoorden bewaren we alleen als onomkeerbare hash, en links om je account te activeren
          of je wachtwoord te herstellen werken maar één keer en verlopen.
        </p>
      </section>
      <section>
        <h2>8. Cookies en lokale opslag</h2>
        <p>
          We gebruiken geen tracking- of advertentiecookies. Je browser bewaart alleen wat nodig is om ingelogd te blijven; na
          uitloggen is dat weg.
        </p>
      </section>
      <section>
        <h2>9. Je rechten</h2>
        <p>
          Je mag je gegevens inzien, laten verbeteren of laten verwijderen, en bezwaar maken tegen een verwerking. Je gegevens pas
          je zelf aan in je profiel; voor de rest mail je naar {mail}. Ben je het niet met ons eens, dan kun je een klacht
          indienen bij de Autoriteit Persoonsgegevens.
        </p>
      </section>
    </ContentPage>
  );
}
