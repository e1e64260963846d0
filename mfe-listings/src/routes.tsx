import { lazy } from 'react';
import { AreaRoutes } from '@ruilplein/ui';
import area from './area.ts';

// Each page is a chunk of its own, loaded when visited: a first visit of the search page does not
// download the listing form, the profile or the wishlist (the shell's area shows a spinner meanwhile).
const SearchPage = lazy(() => import('./search/SearchPage.tsx').then((m) => ({ default: m.SearchPage })));
const ServicesPage = lazy(() => import('./services/ServicesPage.tsx').then((m) => ({ default: m.ServicesPage })));
const ListingDetail = lazy(() => import('./detail/ListingDetail.tsx').then((m) => ({ default: m.ListingDetail })));
const MyListingsPage = lazy(() => import('./my-listings/MyListingsPage.tsx').then((m) => ({ default: m.MyListingsPage })));
const AddListingPage = lazy(() => import('./form/AddListingPage.tsx').then((m) => ({ default: m.AddListingPage })));
const EditListingPage = lazy(() => import('./form/EditListingPage.tsx').then((m) => ({ default: m.EditListingPage })));
const WishlistPage = lazy(() => import('./wishlist/WishlistPage.tsx').then((m) => ({ default: m.WishlistPage })));
const SavedSearchesPage = lazy(() => import('./saved/SavedSearchesPage.tsx').then((m) => ({ default: m.SavedSearchesPage })));
const PublicProfilePage = lazy(() => import('./profile/PublicProfilePage.tsx').then((m) => ({ default: m.PublicProfilePage })));

/** The listings area; the shell mounts it at /dashboard, so the paths of area.ts are relative to that. */
export default function ListingsRoutes() {
  return (
    <AreaRoutes
      area={area}
      screens={{
        search: <SearchPage />,
        services: <ServicesPage />,
        'listing/:id': <ListingDetail />,
        'my-listings': <MyListingsPage />,
        'add-listing': <AddListingPage />,
        'edit-listing/:id': <EditListingPage />,
        wishlist: <WishlistPage />,
        'saved-searches': <SavedSearchesPage />,
        'user/:id': <PublicProfilePage />,
      }}
    />
  );
}
