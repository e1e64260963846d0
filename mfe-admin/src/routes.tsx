import { AreaRoutes, ComingSoon, Page } from '@ruilplein/ui';
import area from './area.ts';

/** The admin area with its own layout (later); the shell mounts it at /admin, so the paths of area.ts are relative to that. */
export default function AdminRoutes() {
  return (
    <AreaRoutes
      area={area}
      screens={{
        '': (
          <Page title="Beheer">
            <p>Het beheerdashboard met statistieken, gebruikers en rapporten komt hier binnenkort.</p>
          </Page>
        ),
        users: <ComingSoon title="Gebruikersbeheer" />,
        reports: <ComingSoon title="Meldingen beheren" />,
      }}
    />
  );
}
