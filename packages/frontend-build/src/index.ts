import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack, type Configuration, type RuleSetRule } from '@rspack/core';

export interface FrontendOptions {
  /** Federation container name; a remote is served under `/mfe/<name>/`. */
  name: string;
  kind: 'host' | 'remote';
  /** The workspace folder: `src/index.ts` is the entry, `dist/` the output, `public/` is copied as is. */
  root: string;
  /** Port of `npm run dev`. */
  port: number;
}

/** What the rspack CLI passes to a config function (`RSPACK_SERVE` under `rspack serve`). */
export interface RspackEnv {
  RSPACK_SERVE?: boolean;
}

const routerVersion = (createRequire(import.meta.url)('react-router/package.json') as { version: string }).version;

/** One copy each at run time, provided by the shell: a second React, router or session would split the page. */
const shared = {
  react: { singleton: true },
  'react-dom': { singleton: true },
  // Its shared copy is the subset of react-router in packages/ui/src/router.ts (see there why).
  'react-router-dom': { singleton: true, import: '@ruilplein/ui/router', version: routerVersion, requiredVersion: `^${routerVersion}` },
  '@ruilplein/ui': { singleton: true },
};

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
 * emits `mf-manifest.json`; the shell learns the manifests' URLs at run time (`/remotes.json`).
 * A remote's own page (`src/index.ts`: its routes in a standalone host) is built only by `npm run dev`.
 */
export function createConfig(app: FrontendOptions, env: RspackEnv = {}): Configuration {
  const dev = Boolean(env.RSPACK_SERVE);
  const remote = app.kind === 'remote';
  const page = !remote || dev;
  const base = baseConfig(app.root, dev);
  return {
    ...base,
    entry: page ? { main: './src/index.ts' } : {},
    output: {
      ...base.output,
      uniqueName: app.name,
      // A remote's chunks load from wherever the shell found its entry.
      publicPath: remote ? 'auto' : '/',
    },
    plugins: [
      ...(page ? [htmlPage()] : []),
      ...(existsSync(join(app.root, 'public')) ? [new rspack.CopyRspackPlugin({ patterns: [{ from: 'public' }] })] : []),
      new ModuleFederationPlugin({
        name: app.name,
        ...(remote && {
          filename: dev ? 'remoteEntry.js' : 'remoteEntry.[contenthash:8].js',
          exposes: { './routes': './src/routes.tsx' },
        }),
        manifest: remote,
        // Types cross the boundary through tsconfig.web.json's `paths`, checked by `npm run typecheck`.
        dts: false,
        // Remotes are registered at run time and loaded when visited; never fetch them early to compare versions.
        shareStrategy: 'loaded-first',
        shared,
        experiments: {
          optimization: { target: 'web' },
          // The shell's federation runtime serves the remotes too (20 kB less per remote entry); a
          // remote's standalone development page has no shell, so it keeps its own.
          ...(remote ? { externalRuntime: !dev } : { provideExternalRuntime: true }),
        },
      }),
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
