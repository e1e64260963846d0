import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { mongo } from 'mongoose';
import { notFound } from './errors.ts';
import type { Connection } from './mongo.ts';

const STORED_NAME = /^([0-9a-f]{24})\.webp$/;

export interface ImageStoreOptions {
  /** The GridFS bucket in the service's database (`avatars`, `listing_photos`). */
  bucket: string;
  /** Where the service serves the files, with both slashes (`/uploads/avatars/`); stored paths start with it. */
  prefix: string;
  /** The metadata field that names a file's owner (`userId`, `ownerId`): kept as the files were stored. */
  ownerField: string;
}

export interface StoredImage {
  size: number;
  etag: string;
  stream(): Readable;
}

/**
 * Encoded WebP images in a GridFS bucket of the service's database. Every stored file gets a new id,
 * so its path names one picture forever and may be cached as immutable; a replaced image is a new
 * file. Paths that are not this store's (a default picture, another prefix) are left alone.
 */
export function imageStore(db: Connection, { bucket: bucketName, prefix, ownerField }: ImageStoreOptions) {
  const bucket = new mongo.GridFSBucket(db.db!, { bucketName });

  const idOf = (path: string | undefined) => {
    const match = path?.startsWith(prefix) ? STORED_NAME.exec(path.slice(prefix.length)) : null;
    return match ? new mongo.ObjectId(match[1]) : undefined;
  };

  /** Removes a stored file by its path; unknown paths are left alone, a missing file is fine. */
  const remove = async (path: string | undefined): Promise<void> => {
    const id = idOf(path);
    if (!id) return;
    try {
      await bucket.delete(id);
    } catch (err) {
      // Already gone (a retry, or a concurrent replacement) is what was wanted.
      if (!(err instanceof mongo.MongoRuntimeError && /not found/i.test(err.message))) throw err;
    }
  };

  return {
    /** Where the files are served. */
    prefix,

    remove,

    /** Removes every path given (a listing's photos and thumbnails). */
    async removeAll(paths: Iterable<string>): Promise<void> {
      for (const path of paths) await remove(path);
    },

    /** Stores an encoded WebP of `ownerId` and answers its path. */
    async save(ownerId: string, webp: Buffer): Promise<string> {
      const id = new mongo.ObjectId();
      const upload = bucket.openUploadStreamWithId(id, `${id.toHexString()}.webp`, { metadata: { [ownerField]: ownerId, contentType: 'image/webp' } });
      await pipeline(async function* () {
        yield webp;
      }, upload);
      return `${prefix}${id.toHexString()}.webp`;
    },

    /** A stored file by its name under the prefix, or undefined. */
    async find(name: string): Promise<StoredImage | undefined> {
      const id = idOf(prefix + name);
      if (!id) return undefined;
      const file = await bucket.find({ _id: id }).next();
      if (!file) return undefined;
      return { size: file.length, etag: `"${id.toHexString()}"`, stream: () => bucket.openDownloadStream(id) };
    },

    /** Removes every file of an owner, for an account that goes. */
    async removeAllOf(ownerId: string): Promise<void> {
      const files = await bucket.find({ [`metadata.${ownerField}`]: ownerId }).toArray();
      for (const file of files) await remove(`${prefix}${file.filename}`);
    },
  };
}

export type ImageStore = ReturnType<typeof imageStore>;

/** A stored file's path names one picture forever; a default picture may be redrawn by a release. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DEFAULT_CACHE = 'public, max-age=86400';

/**
 * Serves the store's files under its prefix (ETag, 304, cached for good) and the service's default
 * picture at its own path (binary, so on createApp's `plain` router). The default is mounted first:
 * under the prefix, the files' route would take its name for an id.
 */
export function imageRoutes(router: Router, store: ImageStore, fallback: { path: string; contentType: string; render(): Promise<Buffer> }): void {
  let rendered: Promise<Buffer> | undefined;
  router.get(fallback.path, async (_req, res) => {
    rendered ??= fallback.render();
    res.set({ 'content-type': fallback.contentType, 'cache-control': DEFAULT_CACHE }).send(await rendered);
  });
  router.get(`${store.prefix}:file`, async (req, res) => {
    const image = await store.find(req.params.file);
    if (!image) throw notFound('Deze afbeelding bestaat niet.');
    res.set({ 'content-type': 'image/webp', 'cache-control': IMMUTABLE, etag: image.etag });
    if (req.headers['if-none-match'] === image.etag) {
      res.status(304).end();
      return;
    }
    res.set('content-length', String(image.size));
    await pipeline(image.stream(), res);
  });
}
