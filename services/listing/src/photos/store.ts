import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Connection } from '@ruilplein/service-kit';
import { mongo } from 'mongoose';

/** Where listing photos are served; the gateway routes this prefix to the listing service. */
export const PHOTO_PREFIX = '/uploads/listings/';
const STORED_NAME = /^([0-9a-f]{24})\.webp$/;

export interface StoredPhoto {
  size: number;
  etag: string;
  stream(): Readable;
}

/**
 * Listing photos in GridFS (bucket `listing_photos`). Every stored file gets a new id, so its URL
 * names one picture forever and may be cached as immutable; a replaced photo is a new file.
 */
export function photoStore(db: Connection) {
  const bucket = new mongo.GridFSBucket(db.db!, { bucketName: 'listing_photos' });

  const idOf = (path: string | undefined) => {
    const match = path?.startsWith(PHOTO_PREFIX) ? STORED_NAME.exec(path.slice(PHOTO_PREFIX.length)) : null;
    return match ? new mongo.ObjectId(match[1]) : undefined;
  };

  /** Removes a stored file by its path; unknown paths (the crate) are left alone, a missing file is fine. */
  const remove = async (path: string | undefined): Promise<void> => {
    const id = idOf(path);
    if (!id) return;
    try {
      await bucket.delete(id);
    } catch (err) {
      if (!(err instanceof mongo.MongoRuntimeError && /not found/i.test(err.message))) throw err;
    }
  };

  return {
    remove,

    /** Removes every path given (a listing's photos and thumbnails). */
    async removeAll(paths: Iterable<string>): Promise<void> {
      for (const path of paths) await remove(path);
    },

    /** Stores an encoded WebP and answers its path. */
    async save(ownerId: string, webp: Buffer): Promise<string> {
      const id = new mongo.ObjectId();
      const upload = bucket.openUploadStreamWithId(id, `${id.toHexString()}.webp`, { metadata: { ownerId, contentType: 'image/webp' } });
      await pipeline(async function* () {
        yield webp;
      }, upload);
      return `${PHOTO_PREFIX}${id.toHexString()}.webp`;
    },

    /** A stored file by its name under PHOTO_PREFIX, or undefined. */
    async find(name: string): Promise<StoredPhoto | undefined> {
      const id = idOf(PHOTO_PREFIX + name);
      if (!id) return undefined;
      const file = await bucket.find({ _id: id }).next();
      if (!file) return undefined;
      return { size: file.length, etag: `"${id.toHexString()}"`, stream: () => bucket.openDownloadStream(id) };
    },

    /** Every file of a member (their account is gone). */
    async removeAllOf(ownerId: string): Promise<void> {
      const files = await bucket.find({ 'metadata.ownerId': ownerId }).toArray();
      for (const file of files) await remove(`${PHOTO_PREFIX}${file.filename}`);
    },

    /** How many files the bucket holds (tests: nothing stored after a refused upload). */
    count: () => bucket.find({}).toArray().then((files) => files.length),
  };
}

export type PhotoStore = ReturnType<typeof photoStore>;
