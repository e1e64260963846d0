import type { ComponentType } from 'react';
import type * as Federated from '../../../shell/src/remotes.ts';

// Stands in for shell/src/remotes.ts in the one-bundle build `npm run size` compares with: the same
// shell and remote code, each remote's routes a lazily loaded chunk of one build instead of a remote.
const imports: Record<Federated.RemoteName, () => Promise<{ default: ComponentType }>> = {
  listings: () => import('../../../mfe-listings/src/routes.tsx'),
  trades: () => import('../../../mfe-trades/src/routes.tsx'),
  admin: () => import('../../../mfe-admin/src/routes.tsx'),
};

const loaded = new Map<Federated.RemoteName, Promise<ComponentType>>();

export const startRemotes: typeof Federated.startRemotes = () => {};

export const loadRoutes: typeof Federated.loadRoutes = (remote) => {
  let routes = loaded.get(remote);
  if (!routes) loaded.set(remote, (routes = imports[remote]().then((module) => module.default)));
  return routes;
};

export const reloadRoutes: typeof Federated.reloadRoutes = (remote) => loaded.delete(remote);

export const retryIfFailed: typeof Federated.retryIfFailed = () => {};
