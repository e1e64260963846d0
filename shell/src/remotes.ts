import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import React, { type ComponentType } from 'react';
import ReactDOM from 'react-dom';
import * as router from 'react-router-dom';
import * as query from '@tanstack/react-query';
import * as ui from '@ruilplein/ui';
import type * as AdminRoutes from 'admin/routes';
import type * as ListingsRoutes from 'listings/routes';
import type * as TradesRoutes from 'trades/routes';

/** The versions of the shared singletons, from their package.json files (packages/frontend-build). */
declare const SHARED_VERSIONS: Record<'react' | 'react-dom' | 'react-router-dom' | '@ruilplein/ui' | '@tanstack/react-query', string>;

/** What the shell mounts of every remote: its `./routes`, a component without props. */
export type RemoteModule = { default: ComponentType };

// The remotes of this repository, typed by their real source (tsconfig.web.json maps
// 'listings/routes' to mfe-listings/src/routes.tsx): one the shell cannot mount breaks `npm run typecheck`.
export const checkedRemotes = {
  listings: undefined as unknown as typeof ListingsRoutes,
  trades: undefined as unknown as typeof TradesRoutes,
  admin: undefined as unknown as typeof AdminRoutes,
} satisfies Record<string, RemoteModule>;

let runtime: Promise<ModuleFederation> | undefined;

/**
 * The federation runtime, a chunk of its own downloaded with the first remote: the first visit of a
 * page without one does not pay for it. It offers the shell's own react, react-dom, router, query
 * client library and @ruilplein/ui as the singletons every remote uses, and is the runtime the
 * remote entries are built to use (`externalRuntime`). A failed download is forgotten.
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
          '@tanstack/react-query': singleton('@tanstack/react-query', query),
        },
      });
    } catch (err) {
      runtime = undefined;
      throw err;
    }
  })();
  return runtime;
}

async function load(name: string, entry: string, fresh: boolean): Promise<ComponentType> {
  const mf = await federation();
  // The runtime caches a remote's manifest and entry, failed ones included; registering it again with
  // `force` drops both, so a retry downloads them anew.
  if (fresh || !mf.options.remotes.some((known) => known.name === name)) mf.registerRemotes([{ name, entry }], { force: fresh });
  const module = await mf.loadRemote<RemoteModule>(`${name}/routes`);
  if (!module) throw new Error(`${name}/routes did not load`);
  return module.default;
}

const loaded = new Map<string, { routes: Promise<ComponentType>; failed: boolean }>();

function start(name: string, entry: string, fresh: boolean): Promise<ComponentType> {
  const attempt = { routes: load(name, entry, fresh), failed: false };
  attempt.routes.catch(() => {
    attempt.failed = true;
  });
  loaded.set(name, attempt);
  return attempt.routes;
}

/** The remote's route tree: the same promise until it is loaded again (React's `use` needs a stable one). */
export function loadRoutes(name: string, entry: string): Promise<ComponentType> {
  return loaded.get(name)?.routes ?? start(name, entry, false);
}

/** Downloads the remote again: the retry button. */
export function reloadRoutes(name: string, entry: string): void {
  start(name, entry, true);
}

/** Entering a remote's area anew tries again if it failed before; on the same page only the button does. */
export function retryIfFailed(name: string, entry: string): void {
  if (loaded.get(name)?.failed) start(name, entry, true);
}
