import { Route, Routes } from 'react-router-dom';
import { ComingSoon, Page } from '@ruilplein/ui';

/** The trades area; the shell mounts it at /dashboard, so paths here are relative to that. */
export default function TradesRoutes() {
  return (
    <Routes>
      <Route
        path="offers"
        element={
          <Page title="Jouw Ruilaanbiedingen">
            <p>Hier zie je binnenkort de ruilaanbiedingen die je hebt gedaan en ontvangen.</p>
          </Page>
        }
      />
      <Route path="*" element={<ComingSoon title="Ruilaanbod" />} />
    </Routes>
  );
}
