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

/** A remote's container (the webpack federation protocol its build emits, packages/frontend-build). */
interface Container {
  init(scope: ShareScope): unknown;
  get(module: './routes'): Promise<() => RemoteModule>;
}
type ShareScope = Record<string, Record<string, { get: () => Promise<() => unknown>; loaded?: 1; from: string; eager?: boolean }>>;

/**
 * The shell's own react, react-dom, router subset, query client library and @ruilplein/ui, offered
 * to every remote as the shared singletons: already loaded, so a container takes them rather than
 * its own copies. Each remote checks the version against the range it requires (`strictVersion`)
 * and refuses to start outside it; the shell compares the ranges in `area.json` first (areas.ts).
 */
const shareScope = (): ShareScope => Object.fromEntries(
  (
    [
      // React's CommonJS exports, the ES modules' namespaces ('react-router-dom' is @ruilplein/ui/router in the shell too).
      ['react', React],
      ['react-dom', ReactDOM],
      ['react-router-dom', router],
      ['@ruilplein/ui', ui],
      ['@tanstack/react-query', query],
    ] as const
  ).map(([name, module]) => [name, { [SHARED_VERSIONS[name]]: { get: () => Promise.resolve(() => module), loaded: 1, from: 'shell' } }]),
);

/** How `area.json` says to start the remote (packages/frontend-build's `PublishedStart`). */
interface Start {
  remoteEntry: string;
  scripts: string[];
}

/**
 * The remote's start from its `area.json`, which the shell has just read for its router (areas.ts):
 * the browser's copy when it has one, so this costs no second round trip.
 */
async function startOf(name: string, manifest: URL): Promise<Start> {
  const res = await fetch(new URL('area.json', manifest), { cache: 'force-cache' });
  if (!res.ok) throw new Error(`${name}/area.json answered ${res.status}`);
  const start = (await res.json()) as Partial<Start>;
  if (typeof start.remoteEntry !== 'string') throw new Error(`${name}/area.json names no remote entry`);
  return { remoteEntry: start.remoteEntry, scripts: Array.isArray(start.scripts) ? start.scripts : [] };
}

/** Runs a script; a failed one leaves no tag behind, so a retry downloads it anew. */
function runScript(src: string): Promise<void> {
  return new Promise((done, fail) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => done();
    script.onerror = () => {
      script.remove();
      fail(new Error(`${src} did not load`));
    };
    document.head.append(script);
  });
}

/** One scope for every remote, made with the first (the prerendering build never makes it). */
let scope: ShareScope | undefined;
const containers = new Map<string, Promise<Container>>();

/**
 * The remote's container, started once: its entry and the scripts of its `./routes` download at
 * the same time (one round instead of two), then it takes the shell's singletons. A script of the
 * routes that ran first is taken as loaded when the container starts; one that failed is asked for
 * again by the container itself. A failed start is forgotten, so a retry starts again.
 */
function container(name: string, entry: string): Promise<Container> {
  let started = containers.get(name);
  if (!started) {
    started = (async () => {
      const manifest = new URL(entry, location.href);
      const { remoteEntry, scripts } = await startOf(name, manifest);
      for (const file of scripts) runScript(new URL(file, manifest).href).catch(() => {});
      await runScript(new URL(remoteEntry, manifest).href);
      const found = (globalThis as Record<string, unknown>)[name] as Container | undefined;
      if (!found || typeof found.get !== 'function') throw new Error(`${remoteEntry} made no container ${name}`);
      await found.init((scope ??= shareScope()));
      return found;
    })();
    containers.set(name, started);
    started.catch(() => containers.get(name) === started && containers.delete(name));
  }
  return started;
}

async function load(name: string, entry: string): Promise<ComponentType> {
  // A chunk that failed to load is asked for again by the next `get`: the container stays.
  const factory = await (await container(name, entry)).get('./routes');
  const module = factory();
  if (!module?.default) throw new Error(`${name}/routes did not load`);
  return module.default;
}

const loaded = new Map<string, { routes: Promise<ComponentType>; failed: boolean }>();

function start(name: string, entry: string): Promise<ComponentType> {
  const attempt = { routes: load(name, entry), failed: false };
  attempt.routes.catch(() => {
    attempt.failed = true;
  });
  loaded.set(name, attempt);
  return attempt.routes;
}

/** The remote's route tree: the same promise until it is loaded again (React's `use` needs a stable one). */
export function loadRoutes(name: string, entry: string): Promise<ComponentType> {
  return loaded.get(name)?.routes ?? start(name, entry);
}

/** Downloads the remote again: the retry button. */
export function reloadRoutes(name: string, entry: string): void {
  start(name, entry);
}

/** Entering a remote's area anew tries again if it failed before; on the same page only the button does. */
export function retryIfFailed(name: string, entry: string): void {
  if (loaded.get(name)?.failed) start(name, entry);
}
