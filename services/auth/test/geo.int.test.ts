import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { geoRoutes, type Place } from '@ruilplein/contracts';
import { createApp } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geoHandlers } from '../src/geo/routes.ts';
import { createPlaceSearch } from '../src/geo/search.ts';

const logger = silentLogger();
let issuer: TestIssuer;
type Server = Awaited<ReturnType<typeof listen>>;
const servers: Server[] = [];

/** The auth service's place search alone, on a real HTTP port. */
async function serve(upstreamUrl?: string) {
  const places = createPlaceSearch({ logger, upstreamUrl });
  const server = await listen(createApp({ service: 'auth', logger, verifyToken: issuer.verifyToken, routes: { geo: geoRoutes }, handlers: geoHandlers(places) }));
  servers.push(server);
  return server.url;
}

/** A stand-in for a Nominatim server: records the queries it gets and answers what the test says. */
async function fakeNominatim(answer: (url: URL) => { status?: number; body: unknown; delayMs?: number }) {
  const seen: URL[] = [];
  const server = await listen(async (req, res) => {
    const url = new URL(req.url!, 'http://upstream');
    seen.push(url);
    const { status = 200, body: payload, delayMs = 0 } = answer(url);
    await new Promise((r) => setTimeout(r, delayMs));
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  });
  servers.push(server);
  return { url: `${server.url}/search`, seen };
}

const search = async (base: string, query: string) => {
  const res = await fetch(`${base}/api/geo/search?${query}`);
  return { status: res.status, json: await body(res) };
};

beforeAll(async () => {
  issuer = await createTestIssuer();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await issuer.close();
});

describe('GET /api/geo/search', () => {
  it('finds Den Haag without a token, however it is written, with its coordinates', async () => {
    const base = await serve();
    for (const q of ['den haag', "'s-Gravenhage", 'DEN HAAG', 's-gravenhage']) {
      const { status, json } = await search(base, new URLSearchParams({ q }).toString());
      expect(status, q).toBe(200);
      const [first]: Place[] = json;
      expect(first, q).toEqual({ name: 'Den Haag', region: 'Zuid-Holland', country: 'NL', latitude: 52.07667, longitude: 4.29861 });
    }
  });

  it('lists Dutch places first and honours the limit', async () => {
    const base = await serve();
    const { json } = await search(base, 'q=Hasselt&limit=2');
    expect(json.map((p: Place) => p.country)).toEqual(['NL', 'BE']);
    const many = await search(base, 'q=a&limit=25');
    expect(many.json).toHaveLength(25);
  });

  it('answers bad input with 400 and a Dutch message', async () => {
    const base = await serve();
    for (const [query, message] of [
      ['', 'Geef een plaatsnaam op.'],
      ['q=', 'Geef een plaatsnaam op.'],
      ['q=%20%20', 'Geef een plaatsnaam op.'],
      [`q=${'a'.repeat(101)}`, 'Een plaatsnaam is hoogstens 100 tekens lang.'],
      ['q=a&q=b', 'Geef een plaatsnaam op.'],
    ] as const) {
      const { status, json } = await search(base, query);
      expect(status, query).toBe(400);
      // One wrong field: the kit answers with that field's own message.
      expect(json.message, query).toBe(message);
      expect(json.errors, query).toEqual([{ path: 'query.q', message }]);
    }
    for (const query of ['q=gent&limit=0', 'q=gent&limit=26', 'q=gent&limit=veel']) {
      const { status, json } = await search(base, query);
      expect(status, query).toBe(400);
      expect(json.errors[0].path).toBe('query.limit');
    }
  });

  it('asks the configured upstream geocoder only for what the bundled list does not know', async () => {
    const upstream = await fakeNominatim(() => ({
      body: [
        { lat: '52.7346', lon: '6.8736', name: 'Ees', display_name: 'Ees, Borger-Odoorn, Drenthe, Nederland', address: { country_code: 'nl', state: 'Drenthe' } },
        { lat: '50.1', lon: '6.1', name: 'Ees', display_name: 'Ees, Luxemburg', address: { country_code: 'lu' } },
        { lat: 'nowhere', lon: '6.1', display_name: 'Broken', address: { country_code: 'nl' } },
      ],
    }));
    const base = await serve(upstream.url);
    const known = await search(base, 'q=Utrecht');
    expect(known.json[0].name).toBe('Utrecht');
    expect(upstream.seen).toHaveLength(0);

    const village = await search(base, 'q=Ees&limit=3');
    expect(village.status).toBe(200);
    expect(village.json).toEqual([{ name: 'Ees', region: 'Drenthe', country: 'NL', latitude: 52.7346, longitude: 6.8736 }]);
    expect(upstream.seen).toHaveLength(1);
    expect(Object.fromEntries(upstream.seen[0]!.searchParams)).toMatchObject({ q: 'Ees', format: 'jsonv2', countrycodes: 'nl,be', limit: '3' });
  });

  it('answers 200 with no places when the upstream geocoder fails, is slow or talks nonsense', async () => {
    for (const answer of [{ status: 502, body: { error: 'down' } }, { body: { not: 'a list' } }, { body: [], delayMs: 2500 }]) {
      const upstream = await fakeNominatim(() => answer);
      const base = await serve(upstream.url);
      const started = Date.now();
      const { status, json } = await search(base, 'q=Ees');
      expect(status).toBe(200);
      expect(json).toEqual([]);
      expect(Date.now() - started).toBeLessThan(2400);
    }
  });

  it('loads the bundled list quickly into a small index (measured in a fresh process)', () => {
    const searchModule = fileURLToPath(new URL('../src/geo/search.ts', import.meta.url));
    const script = `
      import { createPlaceSearch } from ${JSON.stringify(searchModule)};
      globalThis.gc(); const before = process.memoryUsage().heapUsed;
      const started = performance.now();
      const places = createPlaceSearch({ logger: { info() {} } });
      const ms = performance.now() - started;
      globalThis.gc(); const heap = process.memoryUsage().heapUsed - before;
      const q0 = performance.now(); for (let i = 0; i < 200; i++) await places.search(['den haag', 'amster', 'luik', 'ijssel'][i % 4], 10);
      console.log(JSON.stringify({ places: places.size, ms, heap, perQueryMs: (performance.now() - q0) / 200, rss: process.memoryUsage().rss }));`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const figures = JSON.parse(out);
    console.info(
      `place index: ${figures.places} places, built in ${figures.ms.toFixed(0)} ms, ${(figures.heap / 1024 / 1024).toFixed(2)} MB of heap, ` +
        `${(figures.perQueryMs * 1000).toFixed(0)} µs per query (rss ${(figures.rss / 1024 / 1024).toFixed(0)} MB)`,
    );
    expect(figures.places).toBeGreaterThan(1500);
    expect(figures.heap).toBeLessThan(3 * 1024 * 1024);
    expect(figures.ms).toBeLessThan(2000);
    expect(figures.perQueryMs).toBeLessThan(10);
  });
});
