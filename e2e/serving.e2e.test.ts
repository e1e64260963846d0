// How the edge serves the built frontends: cache headers, SPA fallback, 404s, compression.
import { describe, expect, it } from 'vitest';
import { get } from './platform.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const hashed = /[.-][0-9a-f]{8,}\.(js|css)$/i;

/** Every string in a JSON document that names a .js or .css file. */
const assetPaths = (value: unknown): string[] =>
  typeof value === 'string' ? (/\.(js|css)$/.test(value) ? [value] : []) : value && typeof value === 'object' ? Object.values(value).flatMap(assetPaths) : [];

describe('serving the frontends', () => {
  it('serves the shell with no-cache, and its hashed assets as immutable', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((p) => hashed.test(p));
    expect(assets.length, 'hashed scripts or styles in index.html').toBeGreaterThan(0);
    for (const asset of assets) {
      const a = await get(asset);
      expect(a.status, asset).toBe(200);
      expect(a.headers.get('cache-control'), asset).toBe(IMMUTABLE);
      expect(a.headers.get('content-type'), asset).toMatch(/^text\/(javascript|css); charset=utf-8$/);
      await a.body?.cancel();
    }
  });

  it('serves remotes.json and each remote’s mf-manifest.json with no-cache, its hashed chunks as immutable', async () => {
    const res = await get('/remotes.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const remotes = (await res.json()) as Record<string, string>;
    expect(remotes).toEqual({ listings: '/mfe/listings/mf-manifest.json', trades: '/mfe/trades/mf-manifest.json', admin: '/mfe/admin/mf-manifest.json' });

    for (const [name, manifestPath] of Object.entries(remotes)) {
      const m = await get(manifestPath);
      expect(m.status, manifestPath).toBe(200);
      expect(m.headers.get('cache-control'), manifestPath).toBe('no-cache');
      const manifest = (await m.json()) as { metaData?: { remoteEntry?: { name?: string; path?: string } } };
      const entry = manifest.metaData?.remoteEntry;
      expect(entry?.name, `${name}: remote entry in the manifest`).toBeTruthy();
      const entryRes = await get(`/mfe/${name}/${entry?.path ? `${entry.path}/` : ''}${entry?.name}`);
      expect(entryRes.status, entry?.name).toBe(200);
      expect(entryRes.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(entryRes.headers.get('cache-control')).toBe(hashed.test(entry!.name!) ? IMMUTABLE : 'no-cache');
      await entryRes.body?.cancel();

      const chunks = assetPaths(manifest).filter((p) => hashed.test(p));
      expect(chunks.length, `${name}: hashed chunks in the manifest`).toBeGreaterThan(0);
      const chunk = await get(`/mfe/${name}/${chunks[0]}`);
      expect(chunk.status, chunks[0]).toBe(200);
      expect(chunk.headers.get('cache-control'), chunks[0]).toBe(IMMUTABLE);
      await chunk.body?.cancel();
    }
  });

  it('answers client-side routes with the shell’s app page (not a prerendered one), and unknown files with 404', async () => {
    const index = await (await get('/app.html')).text();
    expect(index).toContain('<div id="root"></div>');
    for (const path of ['/dashboard/search', '/dashboard/listing/42', '/admin/users']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(await res.text(), path).toBe(index);
    }
    for (const path of ['/mfe/listings/nope.js', '/mfe/listings/search', '/mfe/nope/mf-manifest.json', '/static/js/nope.0123abcd.js']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      await res.body?.cancel();
    }
  });

  it('compresses JavaScript for a browser that accepts brotli or gzip', async () => {
    const html = await (await get('/')).text();
    const script = [...html.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1]!)[0];
    expect(script).toBeTruthy();
    const br = await get(script!, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('accept-encoding');
    const gz = await get(script!, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    // fetch() decodes both: the same script either way.
    expect(await br.text()).toBe(await gz.text());
  });
});
