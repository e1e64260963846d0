import { randomUUID } from 'node:crypto';
import { testStores } from '@ruilplein/local/testing';
import { connectMongo, createApp, type Connection } from '@ruilplein/service-kit';
import { body, createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAvatar } from '../src/avatars/image.ts';
import { avatarPlain } from '../src/avatars/routes.ts';
import { avatarStore, type AvatarStore } from '../src/avatars/store.ts';

let db: Connection;
let issuer: TestIssuer;
let store: AvatarStore;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  [db, issuer] = await Promise.all([connectMongo(testStores().mongoUrl, `auth-avatars-${randomUUID().slice(0, 8)}`), createTestIssuer()]);
  store = avatarStore(db);
  const app = createApp({ service: 'auth', logger: silentLogger(), verifyToken: issuer.verifyToken, routes: {}, handlers: {}, plain: (router) => avatarPlain(router, store) });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  await db.dropDatabase();
  await Promise.all([db.close(), issuer.close()]);
});

const webp = async (width: number) =>
  processAvatar(await sharp({ create: { width, height: width, channels: 3, background: '#36a' } }).png().toBuffer());
const files = () => db.collection('avatars.files').countDocuments();

describe('avatar store and serving', () => {
  it('serves a stored avatar from GridFS as an immutable WebP, with an ETag and 304', async () => {
    const picture = await webp(64);
    const path = await store.save('u-serve', picture);
    expect(path).toMatch(/^\/uploads\/avatars\/[0-9a-f]{24}\.webp$/);

    const res = await fetch(server.url + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers.get('content-length'))).toBe(picture.length);
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.equals(picture)).toBe(true);

    const etag = res.headers.get('etag')!;
    const again = await fetch(server.url + path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the default avatar as a JPG without any upload', async () => {
    const res = await fetch(`${server.url}/uploads/avatars/default_avatar.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('jpeg');
  });

  it('answers 404 in JSON for unknown and malformed names, and refuses sneaky ones', async () => {
    for (const name of [`${'a'.repeat(24)}.webp`, 'x.webp', `${'a'.repeat(24)}.jpg`, 'default_avatar.png']) {
      const res = await fetch(`${server.url}/uploads/avatars/${name}`);
      expect(res.status, name).toBe(404);
      expect(await body(res)).toEqual({ message: 'Deze afbeelding bestaat niet.' });
    }
    // Encoded slashes and dots never reach a route (the kit's path check).
    const sneaky = await fetch(`${server.url}/uploads/avatars/..%2F..%2Fetc%2Fpasswd`);
    expect([400, 404]).toContain(sneaky.status);
    expect((await body(sneaky)).message).toMatch(/\S/);
  });

  it('removes one avatar by path, leaves the default and unknown paths alone, and clears all of a user', async () => {
    const before = await files();
    const one = await store.save('u-remove', await webp(16));
    const two = await store.save('u-remove', await webp(24));
    const other = await store.save('u-keep', await webp(16));
    expect(await files()).toBe(before + 3);

    await store.remove(one);
    await store.remove(one); // a second removal (a retry) is fine
    await store.remove('/uploads/avatars/default_avatar.jpg');
    await store.remove(undefined);
    expect((await fetch(server.url + one)).status).toBe(404);
    expect((await fetch(server.url + two)).status).toBe(200);

    await store.removeAllOf('u-remove');
    expect((await fetch(server.url + two)).status).toBe(404);
    expect((await fetch(server.url + other)).status).toBe(200);
    expect(await files()).toBe(before + 1);
    expect(await db.collection('avatars.chunks').countDocuments({ files_id: { $exists: true } })).toBe(await files());
  });
});
