import { Link } from 'react-router-dom';
import { buttonClass, Page } from '@ruilplein/ui';
import { PremiumBadge } from './PremiumBadge.tsx';

/** /dashboard/upgrade/bedankt: the thank-you after upgrading. */
export function Thanks() {
  return (
    <Page title="Bedankt voor je upgrade!">
      <p>
        <PremiumBadge /> Je bent nu Premium: onbeperkt listings plaatsen en ruilen, exclusieve categorieën en nieuwe listings eerder zien.
      </p>
      <Link to="/dashboard" className={buttonClass()}>
        Naar je dashboard
      </Link>
    </Page>
  );
}
