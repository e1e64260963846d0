// The pages this remote serves under /dashboard and the sidebar entries it adds (spec 1 §2). Plain
// data: its build publishes it as area.json, from which the shell builds its router and menu.
import type { AreaDeclaration } from '@ruilplein/ui/area';

export default {
  mount: 'dashboard',
  pages: [
    { path: 'search', title: 'Zoeken' },
    { path: 'services', title: 'Ruil-diensten' },
    { path: 'listing/:id', title: 'Listing', example: '/dashboard/listing/1' },
    { path: 'my-listings', title: 'Mijn Listings' },
    { path: 'add-listing', title: 'Nieuwe Listing Toevoegen' },
    { path: 'edit-listing/:id', title: 'Listing Bewerken', example: '/dashboard/edit-listing/1' },
    { path: 'wishlist', title: 'Mijn Verlanglijstje' },
    { path: 'saved-searches', title: 'Mijn zoekopdrachten' },
    { path: 'user/:id', title: 'Profiel', example: '/dashboard/user/1' },
  ],
  menu: [
    { to: '/dashboard/search', label: 'Aanbod', icon: 'search', order: 10, audience: 'member' },
    { to: '/dashboard/services', label: 'Ruil-diensten', icon: 'handshake', order: 20, audience: 'member' },
    { to: '/dashboard/my-listings', label: 'Plaats een ruil', icon: 'circle-plus', order: 30, audience: 'member' },
    { to: '/dashboard/wishlist', label: 'Verlanglijstje', icon: 'heart', order: 40, audience: 'member' },
    { to: '/dashboard/saved-searches', label: 'Zoekopdrachten', icon: 'bookmark', order: 45, audience: 'member' },
  ],
} as const satisfies AreaDeclaration;
