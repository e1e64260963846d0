// `npm run lcp`: the largest contentful paint of `/` and `/login` as shipped (the built page with
// its scripts, which hydrate or render it) against the same HTML with every <script> removed (the
// "static HTML" floor), in headless Chromium on a throttled, phone-like connection and CPU.
// Builds the shell first (a production build, prerendering included) and measures whatever that
// gives, so it compares before and after a change.
//   --no-build          measure shell/dist as it is
//   --dir <dist>        measure another build of the shell (implies --no-build)
//   --static-from <dist> take the static HTML from this build (default: the measured one), e.g.
//                        to compare a build without prerendering with a prerendered page
//   --runs <n>          loads per page and variant (default 7), each in a fresh context
//   --smoke             one load each of shell/dist as it is (e2e/shell-benches.e2e.test.ts, after
//                        the browser tests' set-up has built it)
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { rspack, type Configuration, type MultiStats } from '@rspack/core';
import { chromium, type Browser } from 'playwright-core';
import { APP_PAGE } from '@ruilplein/frontend-build/prerender';

const repo = resolve(import.meta.dirname, '../..');
const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    dir: { type: 'string' },
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

async function buildShell() {
  const config = ((await import(join(repo, 'shell/rspack.config.ts'))) as { default: () => Configuration }).default();
  const compiler = rspack([config]);
  const stats = await new Promise<MultiStats | undefined>((done, fail) => compiler.run((err, result) => (err ? fail(err) : done(result))));
  await new Promise<void>((done) => compiler.close(() => done()));
  if (!stats || stats.hasErrors()) throw new Error(stats?.toString('errors-only') ?? 'build failed');
}

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

/** One load in a fresh context: the largest contentful paint (ms after navigation start) and what it painted. */
async function loadOnce(browser: Browser, server: Server, path: string): Promise<{ lcp: number; element: string }> {
  const { port } = server.address() as { port: number };
  const context = await browser.newContext({ viewport: conditions.viewport, deviceScaleFactor: conditions.deviceScaleFactor, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: conditions.latencyMs,
      downloadThroughput: (conditions.downKbps * 1024) / 8,
      uploadThroughput: (conditions.upKbps * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: conditions.cpuSlowdown });
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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const measured = resolve(args.dir ?? join(repo, 'shell/dist'));
const staticDir = resolve(args['static-from'] ?? measured);
if (!args.dir && !args['no-build'] && !args.smoke) {
  console.log('Building the shell (production)…');
  await buildShell();
}

const shipped = await serve(measured, false);
const bare = await serve(staticDir, true);
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
} finally {
  await browser.close();
  shipped.close();
  bare.close();
}
