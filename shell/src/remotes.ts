import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import React, { type ComponentType } from 'react';
import ReactDOM from 'react-dom';
import * as router from 'react-router-dom';
import * as ui from '@ruilplein/ui';
import type * as AdminRoutes from 'admin/routes';
import type * as ListingsRoutes from 'listings/routes';
import type * as TradesRoutes from 'trades/routes';

export type RemoteName = 'listings' | 'trades' | 'admin';

/** The versions of the shared singletons, from their package.json files (packages/frontend-build). */
declare const SHARED_VERSIONS: Record<'react' | 'react-dom' | 'react-router-dom' | '@ruilplein/ui', string>;

// Typed by each remote's real source (tsconfig.web.json maps 'listings/routes' to
// mfe-listings/src/routes.tsx): a remote whose `./routes` the shell cannot mount breaks `npm run typecheck`.
const exposed = {
  listings: (mf: ModuleFederation) => mf.loadRemote<typeof ListingsRoutes>('listings/routes'),
  trades: (mf: ModuleFederation) => mf.loadRemote<typeof TradesRoutes>('trades/routes'),
  admin: (mf: ModuleFederation) => mf.loadRemote<typeof AdminRoutes>('admin/routes'),
} satisfies Record<RemoteName, (mf: ModuleFederation) => Promise<{ default: ComponentType } | null>>;

let runtime: Promise<ModuleFederation> | undefined;

/**
 * The federation runtime, a chunk of its own downloaded with the first remote: the first visit of a
 * page without one does not pay for it. It offers the shell's own react, react-dom, router and
 * @ruilplein/ui as the singletons every remote uses, and is the runtime the remote entries are built
 * to use (`externalRuntime`). A failed download is forgotten.
 */
function federation(): Promise<ModuleFederation> {
  runtime ??= (async () => {
    try {
      const [{ createInstance }, { default: provideRuntimeCore }] = await Promise.all([
        import('@module-federation/enhanced/runtime'),
        import('@module-federation/inject-external-runtime-core-plugin'),
      ]);
      const singleton = (name: keyof typeof SHARED_VERSIONS, module: object) => ({
        version: SHARED_VERSIONS[name],
        lib: () => module,
        shareConfig: { singleton: true, requiredVersion: false as const },
      });
      return createInstance({
        name: 'shell',
        remotes: [],
        // Remotes are registered when visited; never fetch them early to compare versions.
        shareStrategy: 'loaded-first',
        plugins: [provideRuntimeCore()],
        shared: {
          // What the shell's own code uses: React's CommonJS exports, the ES modules' namespaces
          // ('react-router-dom' is @ruilplein/ui/router in the shell too: see packages/frontend-build).
          react: singleton('react', React),
          'react-dom': singleton('react-dom', ReactDOM),
          'react-router-dom': singleton('react-router-dom', router),
          '@ruilplein/ui': singleton('@ruilplein/ui', ui),
        },
      });
    } catch (err) {
      runtime = undefined;
      throw err;
    }
  })();
  return runtime;
}

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
      return (await res.json()) as Locations;
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
  const [found, mf] = await Promise.all([remoteLocations(), federation()]);
  const entry = found[remote];
  if (!entry) throw new Error(`/remotes.json names no location for ${remote}`);
  // The runtime caches a remote's manifest and entry, failed ones included; registering it again with
  // `force` drops both, so a retry downloads them anew.
  if (fresh || !mf.options.remotes.some((known) => known.name === remote)) mf.registerRemotes([{ name: remote, entry }], { force: fresh });
  const module = await exposed[remote](mf);
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
