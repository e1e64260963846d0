import { Route, Routes } from 'react-router-dom';
import { ComingSoon, Page } from '@ruilplein/ui';

/** The admin area with its own layout (later); the shell mounts it at /admin, so paths here are relative to that. */
export default function AdminRoutes() {
  return (
    <Routes>
      <Route
        index
        element={
          <Page title="Beheer">
            <p>Het beheerdashboard met statistieken, gebruikers en rapporten komt hier binnenkort.</p>
          </Page>
        }
      />
      <Route path="*" element={<ComingSoon title="Beheer" />} />
    </Routes>
  );
}
