// The admin area (its own layout, under /admin) and its entry in the members' sidebar, for admins
// only. Plain data: its build publishes it as area.json, from which the shell builds its router and menu.
import type { AreaDeclaration } from '@ruilplein/ui/area';

export default {
  mount: 'admin',
  pages: [
    { path: '', title: 'Beheer', audience: 'admin' },
    { path: 'users', title: 'Gebruikersbeheer', audience: 'admin' },
    { path: 'reports', title: 'Meldingen beheren', audience: 'admin' },
  ],
  menu: [{ to: '/admin', label: 'Adminpaneel', icon: 'shield', order: 100, audience: 'admin' }],
} as const satisfies AreaDeclaration;
