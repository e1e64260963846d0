import { Route, Routes } from 'react-router-dom';
import { ComingSoon } from '@ruilplein/ui';
import { CategoriesPage } from './categories/CategoriesPage.tsx';

/** The listings area; the shell mounts it at /dashboard, so paths here are relative to that. */
export default function ListingsRoutes() {
  return (
    <Routes>
      {/* The future 'Aanbod' search page; for now the categories it will filter by. */}
      <Route path="search" element={<CategoriesPage />} />
      <Route path="*" element={<ComingSoon title="Aanbod" />} />
    </Routes>
  );
}
