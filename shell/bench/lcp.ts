// `npm run lcp`, in headless Chromium on a throttled, phone-like connection and CPU:
// 1. the largest contentful paint of `/` and `/login` as shipped (the built page with its scripts,
//    which hydrate or render it) against the same HTML with every <script> removed (the "static
//    HTML" floor);
// 2. a signed-in member's reload of `/dashboard/search` and of an offer page, until its content
//    shows, federated (the shell and the remotes' builds) against the one-bundle build `npm run size`
//    compares with (bench/builds.ts), served as the edge serves them (gzip; hashed files immutable,
//    the rest revalidated) with the API answers those pages need; and the same pages' first visit
//    with an empty cache, where each round of downloads costs its full round trip.
// Builds the shell and the remotes first (production builds, prerendering included) and measures
// whatever that gives, so it compares before and after a change; the one-bundle build is made
// every time.
//   --no-build          measure shell/dist and the remotes' dist folders as they are
//   --dir <dist>        measure another build of the shell (implies --no-build)
//   --remotes <dir>     with --dir: the remotes' builds are <dir>/<name> (default: mfe-<name>/dist)
//   --static-from <dist> take the static HTML from this build (default: the measured one), e.g.
//                        to compare a build without prerendering with a prerendered page
//   --runs <n>          loads per page and variant (default 7), each in a fresh context
//   --smoke             one load each of the builds as they are (e2e/shell-benches.e2e.test.ts,
//                        after the browser tests' set-up has built them)
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { basename, extname, join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { APP_PAGE } from '@ruilplein/frontend-build/prerender';
import { apiAnswers, build, federatedConfigs, memberPages, oneBundleConfig, oneBundleDir, remoteDirs, remotes, removeOneBundle, repo, sessionStorage } from './builds.ts';

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    dir: { type: 'string' },
    remotes: { type: 'string' },
    'static-from': { type: 'string' },
    runs: { type: 'string', default: '7' },
    smoke: { type: 'boolean', default: false },
  },
});
const paths = ['/', '/login'];
const runs = args.smoke ? 1 : Number(args.runs);

/**
 * A mid-range phone on a slow mobile connection, as Lighthouse's mobile preset assumes: 4× slower
 * CPU, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up; a 412×823 screen at 1.75×.
 */
const conditions = { cpuSlowdown: 4, latencyMs: 150, downKbps: 1638.4, upKbps: 750, viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 };

const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.png': 'image/png' };
const withoutScripts = (html: string) => html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');

/**
 * Serves a shell build as the edge does (the file, else `<path>/index.html`, else the app page),
 * gzipped; `/api` and missing files are 404s. `staticHtml`: pages without their scripts.
 */
function serve(dir: string, staticHtml: boolean): Promise<Server> {
  const gzipped = new Map<string, Buffer>();
  const isFile = async (file: string) => (file.startsWith(dir + sep) ? Boolean((await stat(file).catch(() => null))?.isFile()) : false);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://lcp').pathname);
    if (path.startsWith('/api/')) return res.writeHead(404).end();
    const file = resolve(dir, `.${path}`);
    const candidates = extname(path) ? [file] : [file, join(file, 'index.html'), join(dir, APP_PAGE), join(dir, 'index.html')];
    let found: string | undefined;
    for (const candidate of candidates) if (!found && (await isFile(candidate))) found = candidate;
    if (!found) return res.writeHead(404).end();
    const key = `${staticHtml}:${found}`;
    let body = gzipped.get(key);
    if (!body) {
      const raw = await readFile(found);
      body = gzipSync(staticHtml && found.endsWith('.html') ? withoutScripts(raw.toString('utf8')) : raw);
      gzipped.set(key, body);
    }
    res.writeHead(200, { 'content-type': types[extname(found)] ?? 'application/octet-stream', 'content-encoding': 'gzip', 'cache-control': 'no-store' }).end(body);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** A page of `context` under `conditions`, with the browser's cache on or off. */
async function throttled(context: BrowserContext, { cache }: { cache: boolean }): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: !cache });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: conditions.latencyMs,
    downloadThroughput: (conditions.downKbps * 1024) / 8,
    uploadThroughput: (conditions.upKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: conditions.cpuSlowdown });
  return page;
}

const phone = { viewport: conditions.viewport, deviceScaleFactor: conditions.deviceScaleFactor, isMobile: true, hasTouch: true };

/** One load in a fresh context: the largest contentful paint (ms after navigation start) and what it painted. */
async function loadOnce(browser: Browser, server: Server, path: string): Promise<{ lcp: number; element: string }> {
  const { port } = server.address() as { port: number };
  const context = await browser.newContext(phone);
  try {
    const page = await throttled(context, { cache: false });
    await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'load' });
    // Scripts may paint later (a client render): wait until nothing loads any more.
    await page.waitForLoadState('networkidle');
    // A string: this file is type-checked without the DOM's names.
    return (await page.evaluate(`new Promise((done, fail) => {
      new PerformanceObserver((list) => {
        const last = list.getEntries().at(-1);
        const el = last.element;
        done({ lcp: last.startTime, element: el ? el.tagName.toLowerCase() + ' "' + (el.textContent ?? '').trim().slice(0, 30) + '"' : '(removed)' });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      setTimeout(() => fail(new Error('no largest-contentful-paint entry')), 5000);
    })`)) as { lcp: number; element: string };
  } finally {
    await context.close();
  }
}

/** Hashed file names (`main.1a2b3c4d.js`), which the edge serves as immutable. */
const contentHashed = /[.-][0-9a-f]{8,}\.(js|css|png|svg|woff2?)$/i;

/**
 * Serves a federated or one-bundle build as the edge does: the shell's files (a page, else the app
 * page), each remote's under `/mfe/<name>/`, gzipped, hashed files immutable and the rest
 * revalidated (`no-cache` with an ETag, 304 when unchanged); `/api` gives the member pages'
 * answers (bench/builds.ts), anything else there, the uploads and the hubs are 404s.
 */
function serveApp(shellDir: string, remoteDirs: Record<string, string>): Promise<Server> {
  const files = new Map<string, { body: Buffer; etag: string }>();
  const isFile = async (file: string, dir: string) => (file.startsWith(dir + sep) ? Boolean((await stat(file).catch(() => null))?.isFile()) : false);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://lcp').pathname);
    if (path.startsWith('/api/')) {
      const answer = apiAnswers[path];
      return answer ? res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer)) : res.writeHead(404).end();
    }
    if (/^\/(uploads|socket\.io|chathub|hub)\b/.test(path)) return res.writeHead(404).end();
    const [, name, rest] = /^\/mfe\/([^/]+)\/(.*)$/.exec(path) ?? [];
    const dir = name ? remoteDirs[name] : shellDir;
    if (!dir) return res.writeHead(404).end();
    const file = resolve(dir, `.${name ? `/${rest}` : path}`);
    const candidates = extname(path) ? [file] : name ? [] : [file, join(file, 'index.html'), join(dir, APP_PAGE), join(dir, 'index.html')];
    let found: string | undefined;
    for (const candidate of candidates) if (!found && (await isFile(candidate, dir))) found = candidate;
    if (!found) return res.writeHead(404).end();
    let entry = files.get(found);
    if (!entry) {
      const body = gzipSync(await readFile(found));
      entry = { body, etag: `"${body.length.toString(36)}-${files.size}"` };
      files.set(found, entry);
    }
    const headers = {
      'content-type': types[extname(found)] ?? 'application/octet-stream',
      'cache-control': contentHashed.test(basename(found)) ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag: entry.etag,
    };
    if (req.headers['if-none-match'] === entry.etag) return res.writeHead(304, headers).end();
    res.writeHead(200, { ...headers, 'content-encoding': 'gzip' }).end(entry.body);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/**
 * A signed-in member's visit of `path` in a fresh context: the milliseconds from the navigation's
 * start until `ready` is in the page (its content). `reload`: the page is opened once, then
 * reloaded and that is measured, with the browser's cache as the first load left it; else one
 * load with an empty cache, where every round of downloads shows.
 */
async function memberVisit(browser: Browser, server: Server, path: string, ready: string, reload: boolean): Promise<number> {
  const { port } = server.address() as { port: number };
  const context = await browser.newContext(phone);
  try {
    // The session in storage, and a watch that notes when `ready` first appears (a string: this
    // file is type-checked without the DOM's names).
    await context.addInitScript({
      content: `localStorage.setItem('ruilplein.user', ${JSON.stringify(sessionStorage.user)});
        localStorage.setItem('ruilplein.token', ${JSON.stringify(sessionStorage.token)});
        const watch = new MutationObserver(() => {
          if (!document.querySelector(${JSON.stringify(ready)})) return;
          globalThis.contentAt = performance.now();
          watch.disconnect();
        });
        watch.observe(document, { childList: true, subtree: true });`,
    });
    // The cache on in both: a first visit starts with an empty one (a fresh context), and a file
    // stored during the visit is there for the page's next request of it, as in a member's browser.
    const page = await throttled(context, { cache: true });
    if (reload) {
      await page.goto(`http://127.0.0.1:${port}${path}`);
      // In the page, not necessarily in view: on a phone the search page's categories sit behind its filter button.
      await page.locator(ready).first().waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      await page.reload({ waitUntil: 'commit' });
    } else await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => (globalThis as { contentAt?: number }).contentAt !== undefined, undefined, { timeout: 60_000 });
    return (await page.evaluate(() => (globalThis as { contentAt?: number }).contentAt)) as number;
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const measured = resolve(args.dir ?? join(repo, 'shell/dist'));
const staticDir = resolve(args['static-from'] ?? measured);
const remoteBuilds = args.dir && args.remotes ? Object.fromEntries(remotes.map((name) => [name, resolve(args.remotes!, name)])) : remoteDirs();
if (!args.dir && !args['no-build'] && !args.smoke) {
  console.log('Building the shell and the remotes (production) and the one-bundle build…');
  await build(await federatedConfigs());
} else console.log('Building the one-bundle build…');
await build([oneBundleConfig()]);

const shipped = await serve(measured, false);
const bare = await serve(staticDir, true);
const federated = await serveApp(measured, remoteBuilds);
const oneBundle = await serveApp(oneBundleDir, remoteBuilds);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
try {
  console.log(`\nLargest contentful paint, median of ${runs} loads each (fresh context, cache off)`);
  console.log(
    `Conditions: CPU ${conditions.cpuSlowdown}× slower, ${conditions.latencyMs} ms latency, ${(conditions.downKbps / 1024).toFixed(1)} Mbit/s down, ` +
      `${conditions.upKbps} kbit/s up, ${conditions.viewport.width}×${conditions.viewport.height} at ${conditions.deviceScaleFactor}×, gzip`,
  );
  console.log(`Shipped: ${measured}${staticDir === measured ? '' : `\nStatic HTML from: ${staticDir}`}\n`);
  console.log(`  ${'page'.padEnd(10)}${'shipped'.padStart(10)}${'static HTML'.padStart(14)}${'ratio'.padStart(9)}   LCP element (shipped / static)`);
  for (const path of paths) {
    const withScripts: number[] = [];
    const without: number[] = [];
    let elements = ['', ''];
    // Alternating, so a busy moment of this shared machine falls on both.
    for (let i = 0; i < runs; i++) {
      const a = await loadOnce(browser, shipped, path);
      const b = await loadOnce(browser, bare, path);
      withScripts.push(a.lcp);
      without.push(b.lcp);
      elements = [a.element, b.element];
    }
    const [s, h] = [median(withScripts), median(without)];
    console.log(`  ${path.padEnd(10)}${`${s.toFixed(0)} ms`.padStart(10)}${`${h.toFixed(0)} ms`.padStart(14)}${`${(s / h).toFixed(2)}×`.padStart(9)}   ${elements.join(' / ')}`);
  }
  console.log('\nGoal: shipped at most 1.3× the static HTML for both.');

  for (const reload of [true, false]) {
    console.log(
      reload
        ? `\nReload of a member page, to content, median of ${runs} reloads each (signed in; fresh context, opened once, then reloaded)`
        : `\nFirst visit of a member page, to content, median of ${runs} loads each (signed in; fresh context, empty cache)`,
    );
    console.log(`  ${'page'.padEnd(34)}${'federated'.padStart(11)}${'one bundle'.padStart(12)}${'ratio'.padStart(9)}`);
    for (const { path, ready } of memberPages) {
      const fed: number[] = [];
      const one: number[] = [];
      for (let i = 0; i < runs; i++) {
        fed.push(await memberVisit(browser, federated, path, ready, reload));
        one.push(await memberVisit(browser, oneBundle, path, ready, reload));
      }
      const [f, o] = [median(fed), median(one)];
      console.log(`  ${(reload ? path : `${path} (first)`).padEnd(34)}${`${f.toFixed(0)} ms`.padStart(11)}${`${o.toFixed(0)} ms`.padStart(12)}${`${(f / o).toFixed(2)}×`.padStart(9)}`);
    }
  }
  console.log('\nGoal: a reload federated at most 1.3× one bundle for both pages.');
} finally {
  await browser.close();
  for (const server of [shipped, bare, federated, oneBundle]) server.close();
  await removeOneBundle();
}
