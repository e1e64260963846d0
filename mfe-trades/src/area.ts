// The pages this remote serves under /dashboard and the sidebar entry it adds (spec 1 §2). Plain
// data: its build publishes it as area.json, from which the shell builds its router and menu.
import type { AreaDeclaration } from '@ruilplein/ui/area';

export default {
  mount: 'dashboard',
  pages: [
    { path: 'offers', title: 'Ruilaanbiedingen' },
    { path: 'listing/:id/offer', title: 'Ruilaanbod doen', example: '/dashboard/listing/1/offer' },
    { path: 'tradeoffer/:id', title: 'Ruilaanbieding', example: '/dashboard/tradeoffer/1' },
    // A swap chain suggested to the member (issue 24); the example is one that does not hold.
    { path: 'ruilketen/:id', title: 'Ruilketen', example: '/dashboard/ruilketen/000000000000000000000000' },
  ],
  menu: [{ to: '/dashboard/offers', label: 'Ruilaanbiedingen', icon: 'arrow-left-right', order: 50, audience: 'member' }],
} as const satisfies AreaDeclaration;
