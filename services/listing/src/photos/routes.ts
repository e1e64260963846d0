import { pipeline } from 'node:stream/promises';
import { DEFAULT_CRATE } from '@ruilplein/contracts';
import { notFound, type Api } from '@ruilplein/service-kit';
import { renderCrate } from './image.ts';
import { PHOTO_PREFIX, type PhotoStore } from './store.ts';

/** A stored photo's URL names one file forever; the crate's drawing may change with a release. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CRATE_CACHE = 'public, max-age=86400';

/** Serves `/uploads/listings/<id>.webp` from GridFS and the default crate's picture (binary: plain express). */
export function photoHttp(api: Api, store: PhotoStore) {
  let crate: Promise<Buffer> | undefined;

  // Before the stored files' route, which would take its name for an id.
  api.router.get(DEFAULT_CRATE.imageUrl, async (_req, res) => {
    crate ??= renderCrate();
    res.set({ 'content-type': 'image/webp', 'cache-control': CRATE_CACHE }).send(await crate);
  });

  api.router.get(`${PHOTO_PREFIX}:file`, async (req, res) => {
    const photo = await store.find(req.params.file);
    if (!photo) throw notFound('Deze afbeelding bestaat niet.');
    res.set({ 'content-type': 'image/webp', 'cache-control': IMMUTABLE, etag: photo.etag });
    if (req.headers['if-none-match'] === photo.etag) {
      res.status(304).end();
      return;
    }
    res.set('content-length', String(photo.size));
    await pipeline(photo.stream(), res);
  });
}
