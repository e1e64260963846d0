import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack, type Compiler, type Configuration, type RuleSetRule } from '@rspack/core';
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

/**
 * Rspack's federation plugin resolves the bundler runtime with `require.resolve`, so the whole
 * runtime (@module-federation/webpack-bundler-runtime, runtime, runtime-core, sdk, error-codes) is
 * bundled from its CommonJS builds, which cannot be tree-shaken: Node-only loaders, the snapshot code
 * `experiments.optimization` turns off and unused helpers all ship. Each `.cjs` file of those
 * packages is swapped for its ES-module twin, which is the same code.
 */
class FederationRuntimeAsEsm {
  apply(compiler: Compiler) {
    const cjs = /[\\/]node_modules[\\/]@module-federation[\\/][^\\/]+[\\/]dist[\\/].+\.cjs$/;
    // A module's type follows the resolved file's extension, before the swap.
    compiler.options.module.rules.push({ test: cjs, type: 'javascript/auto' });
    compiler.hooks.normalModuleFactory.tap('FederationRuntimeAsEsm', (factory) => {
      factory.hooks.afterResolve.tap('FederationRuntimeAsEsm', (data) => {
        const created = data.createData;
        const resource = created?.resource;
        if (!created || !resource || !cjs.test(resource)) return;
        const esm = [resource.replace(/\.cjs$/, '.js'), resource.replace(/\.cjs$/, '.mjs')].find((file) => existsSync(file));
        if (esm) created.resource = esm;
      });
    });
  }
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
 * emits `mf-manifest.json`; the shell learns the manifests' URLs at run time (`/remotes.json`) and
 * loads the federation runtime only with the first remote it shows (see `hostPlugins`).
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
 * A remote: its container and manifest, its federation runtime that of the shell (20 kB less per
 * remote entry); a remote's standalone development page has no shell, so it keeps its own.
 */
function remotePlugins(app: FrontendOptions, dev: boolean) {
  return [
    new FederationRuntimeAsEsm(),
    new PublishArea(app),
    new ModuleFederationPlugin({
      name: app.name,
      filename: dev ? 'remoteEntry.js' : 'remoteEntry.[contenthash:8].js',
      exposes: { './routes': './src/routes.tsx' },
      manifest: true,
      // Types cross the boundary through tsconfig.web.json's `paths`, checked by `npm run typecheck`.
      dts: false,
      // Remotes are registered at run time and loaded when visited; never fetch them early to compare versions.
      shareStrategy: 'loaded-first',
      shared: sharedConfig(app.root),
      experiments: { optimization: { target: 'web' }, externalRuntime: !dev },
    }),
  ];
}

/**
 * The shell has no federation plugin: its own code imports react, the router and @ruilplein/ui as
 * any bundle does, and the federation runtime is a chunk of its own, downloaded with the first
 * remote (shell/src/remotes.ts). That runtime offers the shell's copies as the shared singletons
 * (`SHARED_VERSIONS` are their versions) and serves the remotes as their external runtime.
 */
export function hostPlugins() {
  return [
    new rspack.DefinePlugin({
      SHARED_VERSIONS: JSON.stringify(Object.fromEntries(SHARED_SINGLETONS.map((name) => [name, sharedVersion(name)]))),
      // What experiments.optimization.target does for a federated build: no Node loaders.
      ENV_TARGET: JSON.stringify('web'),
    }),
  ];
}

function sharedVersion(name: SharedName): string {
  if (name === 'react-router-dom') return routerVersion;
  if (name === '@ruilplein/ui') return readPackage(join(import.meta.dirname, '../../ui')).version;
  return (require(`${name}/package.json`) as { version: string }).version;
}

/**
 * Publishes the remote's `src/area.ts` (its pages and menu entries, plain data) as `area.json` next
 * to its manifest, with each menu icon's drawing and the shared ranges it requires: the shell
 * builds its router and sidebar from these files without loading the remote's code. A declaration
 * with problems fails the build.
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
      compilation.hooks.processAssets.tapPromise({ name: 'PublishArea', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        // A query string per build: `rspack serve` reads the edited file again.
        const module = (await import(`${pathToFileURL(file).href}?build=${Date.now()}`)) as { default: AreaDeclaration };
        const area = module.default;
        const problems = areaProblems(area);
        if (problems.length) throw new Error(`${file}:\n  ${problems.join('\n  ')}`);
        const published: PublishedArea = {
          name: this.app.name,
          mount: area.mount,
          pages: area.pages,
          menu: await Promise.all(area.menu.map(async (entry) => ({ ...entry, iconNode: await iconDrawing(this.app.root, entry.icon) }))),
          requires: requiredRanges(this.app.root),
        };
        compilation.emitAsset('area.json', new rspack.sources.RawSource(JSON.stringify(published)));
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
