// The frontend images' nginx configuration, served by a real nginx (Debian's, from the bootstrap)
// over a small web root laid out as infra/docker/frontend.Dockerfile lays it out.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY, freePort, FRONTEND_SECURITY_HEADERS, nginxBinary } from '@ruilplein/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const recipes = resolve(import.meta.dirname, '..');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const servers: ChildProcess[] = [];

/** nginx.conf with the image's paths moved into `dir`, and `app` as the image's app.conf. */
async function serve(app: string, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ruilplein-nginx-'));
  // Workers run as nobody when the test runs as root: they must be able to read the web root.
  await chmod(dir, 0o755);
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, 'html', path, '..'), { recursive: true });
    await writeFile(join(dir, 'html', path), body);
  }
  const port = await freePort();
  await writeFile(join(dir, 'app.conf'), app);
  const conf = (await readFile(join(recipes, 'nginx.conf'), 'utf8'))
    .replaceAll('/tmp/', `${dir}/`)
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace('root /usr/share/nginx/html;', `root ${dir}/html;`)
    .replace('include /etc/nginx/app.conf;', `include ${dir}/app.conf;`)
    .replace('access_log /dev/stdout;', 'access_log off;');
  await writeFile(join(dir, 'nginx.conf'), conf);
  const nginx = spawn(nginxBinary() ?? 'nginx', ['-p', dir, '-e', 'stderr', '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  servers.push(nginx);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return base;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not answer: ${stderr}`);
}

const bigScript = `export const text = ${JSON.stringify('Ruilplein '.repeat(400))};\n`;
let shell = '';
let remote = '';

beforeAll(async () => {
  if (!nginxBinary()) throw new Error('nginx is missing: run `npm run bootstrap`');
  shell = await serve(await readFile(join(recipes, 'nginx.shell.conf'), 'utf8'), {
    // Prerendered pages (`/`, `/over-ons`) and the app page of every other client-side route.
    'index.html': '<!doctype html><title>Ruilplein: ruil spullen</title>',
    'over-ons/index.html': '<!doctype html><title>Over ons | Ruilplein</title>',
    'app.html': '<!doctype html><title>Ruilplein</title>',
    'main.ba5433e9.js': bigScript,
    'remotes.json': '{"listings":"/mfe/listings/mf-manifest.json"}',
  });
  remote = await serve((await readFile(join(recipes, 'nginx.remote.conf'), 'utf8')).replaceAll('__PREFIX__', 'listings'), {
    'mfe/listings/mf-manifest.json': '{}',
    'mfe/listings/remoteEntry.cd8f65e2.js': bigScript,
  });
});

afterAll(() => {
  for (const s of servers) s.kill('SIGTERM');
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

describe('shell image', () => {
  it('serves prerendered pages and app.html at every other client-side route, revalidated', async () => {
    const pages: Array<[string, string]> = [
      ['/', 'Ruilplein: ruil spullen'],
      ['/index.html', 'Ruilplein: ruil spullen'],
      ['/over-ons', 'Over ons | Ruilplein'],
      ['/over-ons/', 'Over ons | Ruilplein'],
      ['/dashboard/search', 'Ruilplein'],
      ['/admin/users/12', 'Ruilplein'],
    ];
    for (const [path, title] of pages) {
      const res = await get(shell + path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain(`<title>${title}</title>`);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('caches hashed files for a year, remotes.json not at all, and 404s a missing file', async () => {
    const js = await get(`${shell}/main.ba5433e9.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    const remotes = await get(`${shell}/remotes.json`);
    expect(remotes.headers.get('cache-control')).toBe('no-cache');
    expect(await remotes.json()).toEqual({ listings: '/mfe/listings/mf-manifest.json' });
    const missing = await get(`${shell}/main.0000aaaa.js`);
    expect(missing.status).toBe(404);
  });

  it('compresses scripts and answers /healthz', async () => {
    const res = await get(`${shell}/main.ba5433e9.js`, { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe(bigScript);
    expect((await get(`${shell}/healthz`)).status).toBe(200);
  });
});

describe('remote image', () => {
  it('serves its files under /mfe/<name>/: manifest revalidated, hashed entry for a year', async () => {
    const manifest = await get(`${remote}/mfe/listings/mf-manifest.json`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const entry = await get(`${remote}/mfe/listings/remoteEntry.cd8f65e2.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('cache-control')).toBe(IMMUTABLE);
  });

  it('has no client-side routes: anything else is a 404', async () => {
    for (const path of ['/', '/mfe/listings/', '/mfe/listings/search', '/mfe/trades/mf-manifest.json', '/index.html']) {
      expect((await get(remote + path)).status, path).toBe(404);
    }
  });
});

describe('browser hardening (both images)', () => {
  const paths = (): Array<[string, string]> => [
    [shell, '/'],
    [shell, '/dashboard/search'],
    [shell, '/main.ba5433e9.js'],
    [shell, '/remotes.json'],
    [shell, '/missing.0000aaaa.js'],
    [remote, '/mfe/listings/mf-manifest.json'],
    [remote, '/mfe/listings/nope.js'],
  ];

  it('sends the local edge’s Content-Security-Policy, no framing, a Referrer-Policy and nosniff on every answer', async () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    for (const [base, path] of paths()) {
      const res = await get(base + path);
      for (const [name, value] of Object.entries(FRONTEND_SECURITY_HEADERS)) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
    }
  });

  it('sends HSTS only when the Ingress says the browser came over TLS', async () => {
    for (const [base, path] of paths()) {
      expect((await get(base + path)).headers.get('strict-transport-security'), path).toBeNull();
      expect((await get(base + path, { 'x-forwarded-proto': 'http' })).headers.get('strict-transport-security'), path).toBeNull();
      expect((await get(base + path, { 'x-forwarded-proto': 'https' })).headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
