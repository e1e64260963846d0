import { AreaRoutes, ComingSoon, Page } from '@ruilplein/ui';
import area from './area.ts';

/** The trades area; the shell mounts it at /dashboard, so the paths of area.ts are relative to that. */
export default function TradesRoutes() {
  return (
    <AreaRoutes
      area={area}
      screens={{
        offers: (
          <Page title="Jouw Ruilaanbiedingen">
            <p>Hier zie je binnenkort de ruilaanbiedingen die je hebt gedaan en ontvangen.</p>
          </Page>
        ),
        'listing/:id/offer': <ComingSoon title="Ruilaanbod doen" />,
        'tradeoffer/:id': <ComingSoon title="Ruilaanbieding" />,
      }}
    />
  );
}
