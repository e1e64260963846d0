// `npm run size`: the gzipped JavaScript a first visit downloads, federated and as one bundle.
// Both builds are production builds of the same code; a real Chromium loads each page from a small
// static server and every script response counts, so the figures are what a browser fetches.
// `--smoke` (e2e/shell-benches.e2e.test.ts): the federated builds as they are (the browser tests'
// set-up has built them), the one-bundle build made; the budget is printed, not enforced.
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { apiAnswers, build, federatedConfigs, memberPages, oneBundleConfig, oneBundleDir, remoteDirs, removeOneBundle, repo, sessionStorage } from './builds.ts';

// The dashboard needs a session: a member's visit starts with one in storage, which the server below accepts.
const visits = [{ path: '/', ready: 'h1', signedIn: false }, ...memberPages.slice(0, 1).map((page) => ({ ...page, signedIn: true }))];

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/** Serves a build the way the platform does: `/mfe/<name>/` from each remote's dist, the rest from the shell's. */
function serve(shellDir: string, remoteDirs: Record<string, string>): Promise<Server> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://size').pathname;
    if (path.startsWith('/api/')) {
      const answer = apiAnswers[path];
      return answer ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)) : res.writeHead(404).end();
    }
    const [, name, rest] = /^\/mfe\/([^/]+)\/(.*)$/.exec(path) ?? [];
    const dir = name ? remoteDirs[name] : shellDir;
    if (!dir) return res.writeHead(404).end();
    let file = resolve(dir, `.${name ? `/${rest}` : path}`);
    if (!file.startsWith(dir + sep) || !(await stat(file).catch(() => null))?.isFile()) {
      if (extname(path)) return res.writeHead(404).end();
      // As the edge: a prerendered page, else the app page (the one-bundle build has only index.html).
      const isFile = async (candidate: string) => Boolean((await stat(candidate).catch(() => null))?.isFile());
      const page = join(file, 'index.html');
      file = file.startsWith(dir) && (await isFile(page)) ? page : (await isFile(join(dir, 'app.html'))) ? join(dir, 'app.html') : join(dir, 'index.html');
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/** Gzipped bytes of every script the page downloads until it shows `ready` and the network is quiet. */
async function measure(browser: Browser, server: Server, path: string, ready: string, signedIn: boolean) {
  const { port } = server.address() as { port: number };
  const context = await browser.newContext();
  if (signedIn) {
    // The session's storage keys (packages/ui/src/session.tsx).
    await context.addInitScript(({ user, token }) => {
      localStorage.setItem('ruilplein.user', user);
      localStorage.setItem('ruilplein.token', token);
    }, sessionStorage);
  }
  const page = await context.newPage();
  const sizes: Promise<[string, number]>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') sizes.push(res.body().then((body) => [new URL(res.url()).pathname, gzipSync(body).length]));
  });
  await page.goto(`http://127.0.0.1:${port}${path}`);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  const files = await Promise.all(sizes);
  await context.close();
  return { total: files.reduce((sum, [, size]) => sum + size, 0), files };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`.padStart(10);

const smoke = process.argv.includes('--smoke');
console.log(smoke ? 'Building the one-bundle build…' : 'Building the federated apps and the one-bundle build…');
if (!smoke) await build(await federatedConfigs());
await build([oneBundleConfig()]);

const federated = await serve(join(repo, 'shell/dist'), remoteDirs());
// The remotes' area.json files are read in both: the shell builds its sidebar and router from them.
const oneBundle = await serve(oneBundleDir, remoteDirs());
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const verbose = process.argv.includes('--files');
const budget = 170_000;
let overBudget = false;
try {
  console.log(`\nGzipped JavaScript of a first visit (level 6)${' '.repeat(4)}federated  one bundle   ratio`);
  for (const { path, ready, signedIn } of visits) {
    const fed = await measure(browser, federated, path, ready, signedIn);
    const one = await measure(browser, oneBundle, path, ready, signedIn);
    console.log(`  ${path.padEnd(44)}${kB(fed.total)} ${kB(one.total)}   ${(fed.total / one.total).toFixed(2)}×`);
    if (verbose) {
      for (const [label, files] of [['federated', fed.files], ['one bundle', one.files]] as const) {
        console.log(`    ${label}:`);
        for (const [file, size] of [...files].sort((a, b) => b[1] - a[1])) console.log(`      ${file.padEnd(48)}${kB(size)}`);
      }
    }
    if (path === '/' && fed.total > budget) overBudget = true;
  }
  console.log(`\nBudget: / at most ${budget / 1000} kB federated${overBudget ? ': EXCEEDED' : ''}. Goal: federated at most 1.15× one bundle.`);
} finally {
  await browser.close();
  federated.close();
  oneBundle.close();
  await removeOneBundle();
}
process.exitCode = overBudget && !smoke ? 1 : 0;
