// The one GridFS image store of the services (avatars, listing photos) on the real store: paths under
// the service's prefix, the owner under the field the service names, removal that tolerates a gone
// file and leaves other paths alone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, imageRoutes, imageStore, type ImageStore } from '../src/index.ts';
import { createTestIssuer, listen, silentLogger } from '../src/testing.ts';
import { testInfra } from './helpers.ts';

let infra: Awaited<ReturnType<typeof testInfra>>;
let store: ImageStore;
const PREFIX = '/uploads/kit/';
const bytes = (text: string) => Buffer.from(text);
const read = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};
const filesOf = (owner: string) => infra.db.collection('kit_images.files').countDocuments({ 'metadata.holder': owner });

beforeAll(async () => {
  infra = await testInfra('kit-images');
  store = imageStore(infra.db, { bucket: 'kit_images', prefix: PREFIX, ownerField: 'holder' });
  issuer = await createTestIssuer();
  const render = async () => Buffer.from(`standaard ${++renders}`);
  const app = createApp({ service: 'auth', logger: silentLogger(), verifyToken: issuer.verifyToken, routes: {}, handlers: {}, plain: (router) => imageRoutes(router, store, { path: `${PREFIX}standaard.webp`, contentType: 'image/webp', render }) });
  server = await listen(app);
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
  await infra?.close();
});
let issuer: Awaited<ReturnType<typeof createTestIssuer>>;
let server: Awaited<ReturnType<typeof listen>>;
let renders = 0;

it('stores a file under a new path of its prefix and finds it by name, with size and etag', async () => {
  const path = await store.save('sanne', bytes('eerste'));
  expect(path).toMatch(/^\/uploads\/kit\/[0-9a-f]{24}\.webp$/);
  const again = await store.save('sanne', bytes('eerste'));
  expect(again).not.toBe(path);
  const found = await store.find(path.slice(PREFIX.length));
  expect(found?.size).toBe(6);
  expect(found?.etag).toBe(`"${path.slice(PREFIX.length, -'.webp'.length)}"`);
  expect(await read(found!.stream())).toBe('eerste');
  const meta = await infra.db.collection('kit_images.files').findOne({ filename: path.slice(PREFIX.length) });
  expect(meta?.metadata).toEqual({ holder: 'sanne', contentType: 'image/webp' });
});

it('finds nothing for a name that is not a stored one', async () => {
  expect(await store.find('000000000000000000000000.webp')).toBeUndefined();
  expect(await store.find('../etc/passwd')).toBeUndefined();
  expect(await store.find('abc.png')).toBeUndefined();
});

it('removes by path, twice without complaint, and leaves paths of other prefixes alone', async () => {
  const path = await store.save('daan', bytes('weg'));
  const other = `/uploads/elders/${path.slice(PREFIX.length)}`;
  await store.remove(other);
  expect(await store.find(path.slice(PREFIX.length))).toBeDefined();
  await store.removeAll([path, '/img/default.webp']);
  await store.remove(path);
  expect(await store.find(path.slice(PREFIX.length))).toBeUndefined();
});

it('removes every file of one owner only', async () => {
  await Promise.all([store.save('lotte', bytes('a')), store.save('lotte', bytes('b')), store.save('kees', bytes('c'))]);
  expect(await filesOf('lotte')).toBe(2);
  await store.removeAllOf('lotte');
  expect(await filesOf('lotte')).toBe(0);
  expect(await filesOf('kees')).toBe(1);
});

it('serves a stored file for good (ETag, 304 when unchanged), refuses an unknown one in Dutch, and the default picture rendered once', async () => {
  const path = await store.save('sanne', bytes('beeld'));
  const res = await fetch(`${server.url}${path}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(res.headers.get('content-type')).toBe('image/webp');
  expect(await res.text()).toBe('beeld');
  const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
  expect(again.status).toBe(304);
  const missing = await fetch(`${server.url}${PREFIX}000000000000000000000000.webp`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ message: 'Deze afbeelding bestaat niet.' });
  for (let i = 0; i < 2; i++) {
    const fallback = await fetch(`${server.url}${PREFIX}standaard.webp`);
    expect([fallback.status, fallback.headers.get('cache-control'), await fallback.text()]).toEqual([200, 'public, max-age=86400', 'standaard 1']);
  }
});
