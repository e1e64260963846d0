import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rspack, type Compilation, type Compiler, type Configuration, type RuleSetRule } from '@rspack/core';
import { areaProblems, type AreaDeclaration, type IconNode, type PublishedArea } from '@ruilplein/ui/area';

export interface FrontendOptions {
  /** Federation container name; a remote is served under `/mfe/<name>/`. */
  name: string;
  kind: 'host' | 'remote';
  /** The workspace folder: `src/index` (.ts or .tsx) is the entry, `dist/` the output, `public/` is copied as is. */
  root: string;
  /** Port of `npm run dev`. */
  port: number;
}

/** What the rspack CLI passes to a config function (`RSPACK_SERVE` under `rspack serve`). */
export interface RspackEnv {
  RSPACK_SERVE?: boolean;
}

const require = createRequire(import.meta.url);
const routerVersion = (require('react-router/package.json') as { version: string }).version;

/**
 * One copy each at run time, provided by the shell: a second React, router, query cache or session
 * would split the page. A remote requires the range its own package.json names (`strictVersion`):
 * one built against another major of any of them is refused before its code runs (the shell
 * compares `area.json`'s `requires` with what it provides, shell/src/areas.ts).
 */
export const SHARED_SINGLETONS = ['react', 'react-dom', 'react-router-dom', '@ruilplein/ui', '@tanstack/react-query'] as const;
export type SharedName = (typeof SHARED_SINGLETONS)[number];

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

const readPackage = (root: string) => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;

/** The range `root`'s package.json requires of each shared singleton. */
export function requiredRanges(root: string): Record<SharedName, string> {
  const deps = readPackage(root).dependencies ?? {};
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => {
      const range = deps[name];
      if (!range || range === '*') throw new Error(`${root}/package.json must name a version range for the shared ${name} (like ^1.0.0)`);
      return [name, range];
    }),
  ) as Record<SharedName, string>;
}

function sharedConfig(root: string) {
  const ranges = requiredRanges(root);
  const one = (name: SharedName) => ({ singleton: true, strictVersion: true, requiredVersion: ranges[name], version: sharedVersion(name) });
  return {
    react: one('react'),
    'react-dom': one('react-dom'),
    // Its shared copy is the subset of react-router in packages/ui/src/router.ts (see there why).
    'react-router-dom': { ...one('react-router-dom'), import: '@ruilplein/ui/router' },
    '@ruilplein/ui': one('@ruilplein/ui'),
    '@tanstack/react-query': one('@tanstack/react-query'),
  };
}

/** Where `npm run dev` sends API calls (and, from the shell, the remotes): the local platform unless told. */
const devBackend = process.env.RUILPLEIN_DEV_BACKEND ?? 'http://localhost:8080';

/** Compilation every frontend build shares, federated or not (`npm run size` reuses it for its one-bundle build). */
export function baseConfig(root: string, dev: boolean): Configuration {
  const swc = (tsx: boolean): RuleSetRule => ({
    test: tsx ? /\.tsx$/ : /\.ts$/,
    exclude: /node_modules/,
    loader: 'builtin:swc-loader',
    options: {
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', tsx },
        transform: { react: { runtime: 'automatic', development: dev } },
      },
    },
    type: 'javascript/auto',
  });
  // Content-hashed names in production: every file but index.html and the manifests may be cached for good.
  const name = (ext: string) => (dev ? `[name].${ext}` : `[name].[contenthash:8].${ext}`);
  return {
    mode: dev ? 'development' : 'production',
    context: root,
    target: ['web', 'es2022'],
    devtool: dev ? 'cheap-module-source-map' : false,
    resolve: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        swc(false),
        swc(true),
        // `Foo.module.css` beside `Foo.tsx` is a CSS module: its classes are local to it, so no two
        // apps or components can collide. Plain `.css` stays global: @ruilplein/ui's tokens, leaflet.
        { test: /\.module\.css$/, type: 'css/module' },
        { test: /\.css$/, exclude: /\.module\.css$/, type: 'css' },
      ],
      // `import * as styles from './Foo.module.css'` then `styles.sidebarToggle` for `.sidebar-toggle`;
      // named exports let unused classes drop out of the JavaScript. Custom properties stay global:
      // they are @ruilplein/ui's tokens (a module may set one for its part, like the footer's focus
      // colour) and the values components pass in `style` (`--tone`).
      parser: { 'css/module': { namedExports: true, dashedIdents: false } },
      generator: {
        'css/module': {
          exportsConvention: 'camel-case-only',
          // The hash covers output.uniqueName (the app), the file and the class, so the shell and
          // the remotes never share a name; in development the name says where a class comes from.
          localIdentName: dev ? '[uniqueName]-[name]__[local]' : '[hash]',
          localIdentHashDigestLength: 6,
        },
      },
    },
    output: { path: join(root, 'dist'), filename: name('js'), chunkFilename: name('js'), cssFilename: name('css'), cssChunkFilename: name('css'), clean: true },
  };
}

/** The page that starts an app; its script path is absolute, as the page answers on every client-side route. */
export const htmlPage = () =>
  new rspack.HtmlRspackPlugin({
    publicPath: '/',
    chunks: ['main'],
    templateContent:
      '<!doctype html><html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ruilplein</title></head><body><div id="root"></div></body></html>',
  });

/**
 * The rspack config of the shell (host) or a remote. A remote exposes one module, `./routes`, and
 * emits `mf-manifest.json` and `area.json`; the shell learns the manifests' URLs at run time
 * (`/remotes.json`) and reads `area.json` beside each (see `PublishArea`).
 * A remote's own page (`src/index.ts`: its routes in a standalone host) is built only by `npm run dev`.
 */
export function createConfig(app: FrontendOptions, env: RspackEnv = {}): Configuration {
  const dev = Boolean(env.RSPACK_SERVE);
  const remote = app.kind === 'remote';
  const page = !remote || dev;
  const base = baseConfig(app.root, dev);
  return {
    ...base,
    entry: page ? { main: './src/index' } : {},
    output: {
      ...base.output,
      uniqueName: app.name,
      // A remote's chunks load from wherever the shell found its entry.
      publicPath: remote ? 'auto' : '/',
    },
    resolve: {
      ...base.resolve,
      // The shell's own 'react-router-dom' is the module it shares (shell/src/remotes.ts), as in tsconfig.web.json.
      ...(!remote && { alias: { 'react-router-dom$': require.resolve('@ruilplein/ui/router') } }),
    },
    plugins: [
      ...(page ? [htmlPage()] : []),
      ...(existsSync(join(app.root, 'public')) ? [new rspack.CopyRspackPlugin({ patterns: [{ from: 'public' }] })] : []),
      ...(remote ? remotePlugins(app, dev) : hostPlugins()),
    ],
    devServer: {
      port: app.port,
      historyApiFallback: true,
      // No React Refresh across federated modules: a change reloads the page.
      hot: false,
      proxy: [{ context: ['/api', '/uploads', '/chathub', ...(remote ? [] : ['/mfe'])], target: devBackend, ws: true, changeOrigin: true }],
    },
  };
}

/**
 * A remote: a classic federation container (rspack's `ModuleFederationPluginV1`, the webpack 5
 * container protocol: `init(shareScope)`, `get('./routes')`), published with its manifest and
 * `area.json`. The container brings the small sharing runtime webpack has always had (about 6 kB
 * gzipped); the enhanced runtime of @module-federation (its runtime-core in the shell, about 20 kB
 * gzipped, plus a bundler runtime of 9 kB in every remote entry) bought nothing this platform uses:
 * the shell registers remotes itself, loads no remote's remotes and checks versions itself.
 * The shared singletons stay `singleton` and `strictVersion`: a remote refuses a shell copy
 * outside its range before its code runs. A remote's standalone development page has no shell, so
 * its own copies are the ones shared there.
 */
function remotePlugins(app: FrontendOptions, dev: boolean) {
  return [
    new PublishArea(app),
    new rspack.container.ModuleFederationPluginV1({
      name: app.name,
      filename: dev ? 'remoteEntry.js' : 'remoteEntry.[contenthash:8].js',
      // A global of that name, as the enhanced runtime used: the shell reads it after the script ran.
      library: { type: 'var', name: app.name },
      exposes: { './routes': { import: './src/routes.tsx', name: EXPOSE_CHUNK } },
      // Types cross the boundary through tsconfig.web.json's `paths`, checked by `npm run typecheck`.
      shared: sharedConfig(app.root),
    }),
  ];
}

/** The chunk of a remote's `./routes` (named so the manifest and `area.json` can list its files). */
const EXPOSE_CHUNK = '__federation_expose_routes';

/**
 * The shell has no federation plugin: its own code imports react, the router and @ruilplein/ui as
 * any bundle does, and shell/src/remotes.ts offers those copies to the remotes' containers as the
 * shared singletons (`SHARED_VERSIONS` are their versions).
 */
export function hostPlugins() {
  return [
    new rspack.DefinePlugin({
      SHARED_VERSIONS: JSON.stringify(Object.fromEntries(SHARED_SINGLETONS.map((name) => [name, sharedVersion(name)]))),
    }),
  ];
}

function sharedVersion(name: SharedName): string {
  if (name === 'react-router-dom') return routerVersion;
  if (name === '@ruilplein/ui') return readPackage(join(import.meta.dirname, '../../ui')).version;
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** What `area.json` tells the shell beyond the declaration: how to start the remote's code. */
interface PublishedStart {
  /** The container's script, beside `area.json` (`remoteEntry.1a2b3c4d.js`). */
  remoteEntry: string;
  /**
   * The scripts of `./routes`, which the shell runs together with the entry instead of one round
   * after it (a chunk that ran before its container is taken as loaded when the container starts).
   */
  scripts: string[];
}

/** The files of a named chunk group. */
const groupFiles = (compilation: Compilation, name: string): string[] => compilation.namedChunkGroups.get(name)?.getFiles() ?? [];

/**
 * Publishes the remote's `src/area.ts` (its pages and menu entries, plain data) as `area.json` next
 * to its manifest, with each menu icon's drawing, the shared ranges it requires and its start (the
 * container's file and the scripts of `./routes`): the shell builds its router and sidebar from these
 * files without loading the remote's code, and starts the remote from the same file in one round.
 * A declaration with problems fails the build. Also `mf-manifest.json`, in the shape of
 * @module-federation's manifest (its remote entry, exposes and shared), which `/remotes.json` names.
 * Both are made after the content hashes are final (`PROCESS_ASSETS_STAGE_REPORT`).
 */
class PublishArea {
  private readonly app: FrontendOptions;
  constructor(app: FrontendOptions) {
    this.app = app;
  }

  apply(compiler: Compiler) {
    const file = join(this.app.root, 'src', 'area.ts');
    compiler.hooks.thisCompilation.tap('PublishArea', (compilation) => {
      compilation.fileDependencies.add(file);
      compilation.hooks.processAssets.tapPromise({ name: 'PublishArea', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, async () => {
        // A query string per build: `rspack serve` reads the edited file again.
        const module = (await import(`${pathToFileURL(file).href}?build=${Date.now()}`)) as { default: AreaDeclaration };
        const area = module.default;
        const problems = areaProblems(area);
        if (problems.length) throw new Error(`${file}:\n  ${problems.join('\n  ')}`);
        const remoteEntry = [...(compilation.namedChunks.get(this.app.name)?.files ?? [])].find((f) => f.endsWith('.js'));
        if (!remoteEntry) throw new Error(`${this.app.name}: the build made no remote entry`);
        const routes = groupFiles(compilation, EXPOSE_CHUNK);
        const scripts = routes.filter((f) => f.endsWith('.js'));
        const requires = requiredRanges(this.app.root);
        const published: PublishedArea & PublishedStart = {
          name: this.app.name,
          mount: area.mount,
          pages: area.pages,
          menu: await Promise.all(area.menu.map(async (entry) => ({ ...entry, iconNode: await iconDrawing(this.app.root, entry.icon) }))),
          requires,
          remoteEntry,
          scripts,
        };
        compilation.emitAsset('area.json', new rspack.sources.RawSource(JSON.stringify(published)));
        const split = (files: string[]) => ({ sync: files, async: [] });
        const { name: buildName, version: buildVersion } = readPackage(this.app.root);
        const manifest = {
          id: this.app.name,
          name: this.app.name,
          metaData: {
            name: this.app.name,
            globalName: this.app.name,
            buildInfo: { buildVersion, buildName },
            publicPath: 'auto',
            remoteEntry: { name: remoteEntry, path: '', type: 'var' },
          },
          shared: SHARED_SINGLETONS.map((name) => ({ id: `${this.app.name}:${name}`, name, version: sharedVersion(name), singleton: true, requiredVersion: requires[name] })),
          remotes: [],
          exposes: [
            {
              id: `${this.app.name}:routes`,
              name: 'routes',
              path: './routes',
              assets: { js: split(scripts), css: split(routes.filter((f) => f.endsWith('.css'))) },
            },
          ],
        };
        compilation.emitAsset('mf-manifest.json', new rspack.sources.RawSource(JSON.stringify(manifest, null, 2)));
      });
    });
  }
}

/** A lucide icon's elements by its name (`heart`), without React: the shell draws it as an <svg>. */
async function iconDrawing(root: string, name: string): Promise<IconNode> {
  let file: string;
  try {
    file = createRequire(join(root, 'package.json')).resolve(`lucide-react/icons/${name}`);
  } catch {
    throw new Error(`${root}/src/area.ts: there is no lucide icon named '${name}' (see https://lucide.dev/icons)`);
  }
  const { __iconData } = (await import(pathToFileURL(file).href)) as { __iconData?: { node: [string, Record<string, string>][] } };
  if (!__iconData) {
    // An old name (`history`) re-exports the icon under its new name (`rotate-ccw-clock`).
    const renamed = /from '\.\/([a-z0-9-]+)\.mjs'/.exec(readFileSync(file, 'utf8'))?.[1];
    if (!renamed || renamed === name) throw new Error(`lucide icon '${name}' has no drawing`);
    return iconDrawing(root, renamed);
  }
  return __iconData.node.map(([tag, { key: _key, ...attrs }]) => [tag, attrs] as const);
}
