import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import type * as AdminRoutes from 'admin/routes';
import type * as ListingsRoutes from 'listings/routes';
import type * as TradesRoutes from 'trades/routes';

export type RemoteName = 'listings' | 'trades' | 'admin';

// Typed by each remote's real source (tsconfig.web.json maps 'listings/routes' to
// mfe-listings/src/routes.tsx): a remote whose `./routes` the shell cannot mount breaks `npm run typecheck`.
const exposed = {
  listings: () => loadRemote<typeof ListingsRoutes>('listings/routes'),
  trades: () => loadRemote<typeof TradesRoutes>('trades/routes'),
  admin: () => loadRemote<typeof AdminRoutes>('admin/routes'),
} satisfies Record<RemoteName, () => Promise<{ default: ComponentType } | null>>;

type Locations = Partial<Record<RemoteName, string>>;
let locations: Promise<Locations> | undefined;

/**
 * Where each remote's manifest lives comes from `/remotes.json`, served with the shell and replaced
 * per environment, so a remote is deployed without rebuilding the shell. A failed read is forgotten.
 */
function remoteLocations(): Promise<Locations> {
  locations ??= (async () => {
    try {
      const res = await fetch('/remotes.json', { cache: 'no-cache' });
      if (!res.ok) throw new Error(`/remotes.json answered ${res.status}`);
      const found = (await res.json()) as Locations;
      registerRemotes(Object.entries(found).map(([name, entry]) => ({ name, entry })));
      return found;
    } catch (err) {
      locations = undefined;
      throw err;
    }
  })();
  return locations;
}

/** Reads the remotes' locations at start; nothing of a remote is downloaded until one of its paths is visited. */
export function startRemotes(): void {
  remoteLocations().catch(() => {}); // each remote area reports the failure when it needs the locations
}

async function load(remote: RemoteName, fresh: boolean): Promise<ComponentType> {
  const entry = (await remoteLocations())[remote];
  if (!entry) throw new Error(`/remotes.json names no location for ${remote}`);
  // The runtime caches a remote's manifest and entry, failed ones included; registering it again with
  // `force` drops both, so a retry downloads them anew.
  if (fresh) registerRemotes([{ name: remote, entry }], { force: true });
  const module = await exposed[remote]();
  if (!module) throw new Error(`${remote}/routes did not load`);
  return module.default;
}

const loaded = new Map<RemoteName, { routes: Promise<ComponentType>; failed: boolean }>();

function start(remote: RemoteName, fresh: boolean): Promise<ComponentType> {
  const attempt = { routes: load(remote, fresh), failed: false };
  attempt.routes.catch(() => {
    attempt.failed = true;
  });
  loaded.set(remote, attempt);
  return attempt.routes;
}

/** The remote's route tree: the same promise until it is loaded again (React's `use` needs a stable one). */
export function loadRoutes(remote: RemoteName): Promise<ComponentType> {
  return loaded.get(remote)?.routes ?? start(remote, false);
}

/** Downloads the remote again: the retry button. */
export function reloadRoutes(remote: RemoteName): void {
  start(remote, true);
}

/** Entering a remote's area anew tries again if it failed before; on the same page only the button does. */
export function retryIfFailed(remote: RemoteName): void {
  if (loaded.get(remote)?.failed) start(remote, true);
}
