import { lazy } from 'react';
import { AreaRoutes } from '@ruilplein/ui';
import area from './area.ts';

// Each page is a chunk of its own, loaded when visited: the list does not download the offer
// screen's drag and drop, nor the chat's socket.io client (the shell's area shows a spinner meanwhile).
const OffersPage = lazy(() => import('./offers/OffersPage.tsx').then((m) => ({ default: m.OffersPage })));
const CreateOfferPage = lazy(() => import('./create/CreateOfferPage.tsx').then((m) => ({ default: m.CreateOfferPage })));
const OfferDetailPage = lazy(() => import('./detail/OfferDetailPage.tsx').then((m) => ({ default: m.OfferDetailPage })));
const ChainPage = lazy(() => import('./chains/ChainPage.tsx').then((m) => ({ default: m.ChainPage })));

/** The trades area; the shell mounts it at /dashboard, so the paths of area.ts are relative to that. */
export default function TradesRoutes() {
  return (
    <AreaRoutes
      area={area}
      screens={{
        offers: <OffersPage />,
        'listing/:id/offer': <CreateOfferPage />,
        'tradeoffer/:id': <OfferDetailPage />,
        'ruilketen/:id': <ChainPage />,
      }}
    />
  );
}
