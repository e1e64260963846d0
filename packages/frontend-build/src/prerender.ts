// Prerendered pages: after the shell's browser build has emitted its index.html, the app is built
// once more for Node from a server entry (shell/src/prerender.tsx) and each of its pages is
// rendered to HTML with React's static prerendering. The browser's page at `/over-ons` is then
// `dist/over-ons/index.html` (`/`: `dist/index.html`), with the page's text, title, description
// and Open Graph tags in it; the scripts are the same and hydrate it. Every other client-side
// route gets `dist/app.html`, the page without prerendered content (the local edge and nginx
// serve: the file, else `<path>/index.html`, else app.html).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rspack, type Compiler, type Configuration, type MultiStats, type Stats } from '@rspack/core';
import { baseConfig } from './index.ts';

/** What a prerendered page's <head> says about it. */
export interface PrerenderedPage {
  path: string;
  title: string;
  description: string;
}

/** What the server entry exports. */
export interface ServerEntry {
  pages: readonly PrerenderedPage[];
  /** The HTML inside the page's root element. */
  render(path: string): Promise<string>;
}

/** The page every other client-side route is answered with. */
export const APP_PAGE = 'app.html';
const site = 'Ruilplein';

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The <title>, description and Open Graph tags of a page. No og:url: it must be absolute, and
 * the site's address is the deployment's, not the build's.
 */
export function headTags(page: PrerenderedPage): string {
  const meta = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${escape(value)}">`;
  return [
    `<title>${escape(page.title)}</title>`,
    meta('name', 'description', page.description),
    meta('property', 'og:title', page.title),
    meta('property', 'og:description', page.description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:locale', 'nl_NL'),
    meta('property', 'og:site_name', site),
  ].join('');
}

/** The built page (`<title>Ruilplein</title>`, an empty `<div id="root">`) with a page's head and markup. */
export function pageHtml(template: string, page: PrerenderedPage, markup: string): string {
  const title = /<title>[^<]*<\/title>/;
  const root = '<div id="root"></div>';
  if (!title.test(template) || !template.includes(root)) throw new Error(`the page template needs a <title> and ${root}`);
  // The CSP allows no inline script (infra/local/src/edge.ts): React adds one only for a Suspense
  // boundary that is still pending, which a finished prerender has none of. Never ship one.
  if (/<script\b/i.test(markup)) throw new Error(`the prerendered ${page.path} contains a <script>: the CSP would refuse it`);
  return template.replace(title, () => headTags(page)).replace(root, () => `<div id="root">${markup}</div>`);
}

/** Where a page's HTML goes: `/` → index.html, `/over-ons` → over-ons/index.html. */
export const pageFile = (dist: string, path: string) => join(dist, ...path.split('/').filter(Boolean), 'index.html');

/**
 * The Node build of the server entry: the browser build's compilation (loaders, aliases, CSS
 * module names: same context, uniqueName and localIdentName, so the classes in the HTML are the
 * stylesheet's) as one CommonJS file, CSS modules giving their class names only.
 */
export function serverConfig(root: string, entry: string, outDir: string, browser: { uniqueName?: string; alias?: unknown }): Configuration {
  const base = baseConfig(root, false);
  const generator: Record<string, object> = { ...base.module?.generator };
  for (const type of ['css', 'css/auto', 'css/module']) generator[type] = { ...generator[type], exportsOnly: true };
  return {
    ...base,
    target: 'node',
    entry: { prerender: entry },
    module: { ...base.module, generator: generator as NonNullable<Configuration['module']>['generator'] },
    resolve: { ...base.resolve, ...(browser.alias ? { alias: browser.alias as Record<string, string> } : {}) },
    output: { path: outDir, filename: '[name].cjs', library: { type: 'commonjs2' }, uniqueName: browser.uniqueName, clean: true },
    optimization: { minimize: false },
    // The code a page might load later (remotes, the map) goes into the same file: nothing to serve.
    plugins: [new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
  };
}

async function run(config: Configuration): Promise<void> {
  const compiler = rspack(config);
  const stats = await new Promise<Stats | MultiStats | undefined>((done, fail) => compiler.run((err, result) => (err ? fail(err) : done(result))));
  await new Promise<void>((done) => compiler.close(() => done()));
  if (!stats || stats.hasErrors()) throw new Error(`the prerender build failed:\n${stats?.toString('errors-only') ?? ''}`);
}

/** Builds the server entry and writes every page it lists into `dist`, beside `app.html`, from the built `index.html`. */
export async function prerender(opts: { root: string; entry: string; dist: string; uniqueName?: string; alias?: unknown }): Promise<PrerenderedPage[]> {
  const outDir = await mkdtemp(join(tmpdir(), 'ruilplein-prerender-'));
  try {
    await run(serverConfig(opts.root, resolve(opts.root, opts.entry), outDir, opts));
    const server = createRequire(import.meta.url)(join(outDir, 'prerender.cjs')) as ServerEntry;
    const template = await readFile(join(opts.dist, 'index.html'), 'utf8');
    for (const page of server.pages) {
      const file = pageFile(opts.dist, page.path);
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, pageHtml(template, page, await server.render(page.path)));
    }
    // Last: its presence says the whole build is done (infra/local/src/frontends.ts's marker).
    await writeFile(join(opts.dist, APP_PAGE), template);
    return [...server.pages];
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/**
 * The rspack plugin of the shell's production build: once the browser build is written, its pages
 * are prerendered (see above). `entry` is relative to the app's folder.
 */
export class PrerenderPages {
  private readonly entry: string;
  constructor(entry: string) {
    this.entry = entry;
  }

  apply(compiler: Compiler) {
    compiler.hooks.afterEmit.tapPromise('PrerenderPages', async (compilation) => {
      if (compilation.errors.length) return;
      const { context, output, resolve: resolved } = compiler.options;
      const pages = await prerender({ root: context!, entry: this.entry, dist: output.path!, uniqueName: output.uniqueName, alias: resolved.alias });
      compilation.getLogger('PrerenderPages').info(`prerendered ${pages.map((page) => page.path).join(' ')}`);
    });
  }
}
