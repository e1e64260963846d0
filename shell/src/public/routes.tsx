import { Link, Route } from 'react-router-dom';
import { Page } from '@ruilplein/ui';
import { FaqPage } from './FaqPage.tsx';
import { AboutPage, ContactPage, RulesPage, SwapPage } from './InfoPages.tsx';
import { Landing } from './Landing.tsx';
import { PrivacyPage, TermsPage } from './LegalPages.tsx';

/** The public pages (spec 1 §2, "Public pages"), to be mounted inside <PublicLayout>. */
export const publicPageRoutes = (
  <>
    <Route index element={<Landing />} />
    <Route path="over-ons" element={<AboutPage />} />
    <Route path="veelgestelde-vragen" element={<FaqPage />} />
    <Route path="ruilen" element={<SwapPage />} />
    <Route path="ruilregels" element={<RulesPage />} />
    <Route path="algemene-voorwaarden" element={<TermsPage />} />
    <Route path="privacyverklaring" element={<PrivacyPage />} />
    <Route path="contact" element={<ContactPage />} />
  </>
);

export function NotFound() {
  return (
    <Page title="Pagina niet gevonden">
      <p>
        Deze pagina bestaat niet (meer). <Link to="/">Naar de homepage</Link>
      </p>
    </Page>
  );
}
