import type { ComponentType } from 'react';
import type * as Federated from './remotes.ts';

// Stands in for ./remotes.ts in the one-bundle build `npm run size` compares with: the same
// shell and remote code, each remote's routes a lazily loaded chunk of one build instead of a remote
// (the shell still reads the remotes' area.json files for its router and sidebar).
const imports: Record<string, () => Promise<{ default: ComponentType }>> = {
  listings: () => import('../../mfe-listings/src/routes.tsx'),
  trades: () => import('../../mfe-trades/src/routes.tsx'),
  admin: () => import('../../mfe-admin/src/routes.tsx'),
};

const loaded = new Map<string, Promise<ComponentType>>();

export const checkedRemotes = {} as typeof Federated.checkedRemotes;

export const loadRoutes: typeof Federated.loadRoutes = (name) => {
  let routes = loaded.get(name);
  if (!routes) loaded.set(name, (routes = (imports[name]?.() ?? Promise.reject(new Error(`no remote ${name}`))).then((module) => module.default)));
  return routes;
};

export const reloadRoutes: typeof Federated.reloadRoutes = (name) => void loaded.delete(name);

export const retryIfFailed: typeof Federated.retryIfFailed = () => {};
