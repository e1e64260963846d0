import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack, type Compiler, type Configuration, type RuleSetRule } from '@rspack/core';

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

/** One copy each at run time, provided by the shell: a second React, router or session would split the page. */
const shared = {
  react: { singleton: true },
  'react-dom': { singleton: true },
  // Its shared copy is the subset of react-router in packages/ui/src/router.ts (see there why).
  'react-router-dom': { singleton: true, import: '@ruilplein/ui/router', version: routerVersion, requiredVersion: `^${routerVersion}` },
  '@ruilplein/ui': { singleton: true },
};

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
    module: { rules: [swc(false), swc(true), { test: /\.css$/, type: 'css/auto' }] },
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
    new ModuleFederationPlugin({
      name: app.name,
      filename: dev ? 'remoteEntry.js' : 'remoteEntry.[contenthash:8].js',
      exposes: { './routes': './src/routes.tsx' },
      manifest: true,
      // Types cross the boundary through tsconfig.web.json's `paths`, checked by `npm run typecheck`.
      dts: false,
      // Remotes are registered at run time and loaded when visited; never fetch them early to compare versions.
      shareStrategy: 'loaded-first',
      shared,
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
function hostPlugins() {
  return [
    new rspack.DefinePlugin({
      SHARED_VERSIONS: JSON.stringify(Object.fromEntries(Object.keys(shared).map((name) => [name, sharedVersion(name)]))),
      // What experiments.optimization.target does for a federated build: no Node loaders.
      ENV_TARGET: JSON.stringify('web'),
    }),
  ];
}

function sharedVersion(name: string): string {
  if (name === 'react-router-dom') return routerVersion;
  const manifest = name === '@ruilplein/ui' ? join(import.meta.dirname, '../../ui/package.json') : `${name}/package.json`;
  return (require(manifest) as { version: string }).version;
}
