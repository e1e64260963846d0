import { AreaRoutes, ComingSoon } from '@ruilplein/ui';
import area from './area.ts';
import { CategoriesPage } from './categories/CategoriesPage.tsx';

/** The listings area; the shell mounts it at /dashboard, so the paths of area.ts are relative to that. */
export default function ListingsRoutes() {
  return (
    <AreaRoutes
      area={area}
      screens={{
        // The future 'Aanbod' search page; for now the categories it will filter by.
        search: <CategoriesPage />,
        services: <ComingSoon title="Ruil-diensten" />,
        'listing/:id': <ComingSoon title="Advertentie" />,
        'my-listings': <ComingSoon title="Mijn advertenties" />,
        'add-listing': <ComingSoon title="Advertentie plaatsen" />,
        'edit-listing/:id': <ComingSoon title="Advertentie bewerken" />,
        wishlist: <ComingSoon title="Verlanglijstje" />,
        'user/:id': <ComingSoon title="Profiel" />,
      }}
    />
  );
}
