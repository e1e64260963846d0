import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Connection } from '@ruilplein/service-kit';
import { mongo } from 'mongoose';

/** Where avatars are served; the gateway routes this prefix to auth. */
export const AVATAR_PREFIX = '/uploads/avatars/';
const STORED_NAME = /^([0-9a-f]{24})\.webp$/;

export interface StoredAvatar {
  size: number;
  etag: string;
  stream(): Readable;
}

/** Avatars in GridFS of the auth database; each upload gets a new id, so its URL never changes content. */
export function avatarStore(db: Connection) {
  const bucket = new mongo.GridFSBucket(db.db!, { bucketName: 'avatars' });

  const idOf = (path: string | undefined) => {
    const match = path?.startsWith(AVATAR_PREFIX) ? STORED_NAME.exec(path.slice(AVATAR_PREFIX.length)) : null;
    return match ? new mongo.ObjectId(match[1]) : undefined;
  };

  /** Removes a stored avatar by its path; the default avatar and unknown paths are left alone. */
  const remove = async (path: string | undefined): Promise<void> => {
    const id = idOf(path);
    if (!id) return;
    try {
      await bucket.delete(id);
    } catch (err) {
      // Already gone (a retry, or a concurrent replacement) is what we wanted.
      if (!(err instanceof mongo.MongoRuntimeError && /not found/i.test(err.message))) throw err;
    }
  };

  return {
    remove,

    /** Stores an encoded WebP and answers the path the user record keeps. */
    async save(userId: string, webp: Buffer): Promise<string> {
      const id = new mongo.ObjectId();
      const upload = bucket.openUploadStreamWithId(id, `${id.toHexString()}.webp`, { metadata: { userId, contentType: 'image/webp' } });
      await pipeline(async function* () {
        yield webp;
      }, upload);
      return `${AVATAR_PREFIX}${id.toHexString()}.webp`;
    },

    /** A stored avatar by its file name under AVATAR_PREFIX, or undefined. */
    async find(name: string): Promise<StoredAvatar | undefined> {
      const id = idOf(AVATAR_PREFIX + name);
      if (!id) return undefined;
      const file = await bucket.find({ _id: id }).next();
      if (!file) return undefined;
      return { size: file.length, etag: `"${id.toHexString()}"`, stream: () => bucket.openDownloadStream(id) };
    },

    /** Removes every avatar of a user, for an account that goes. */
    async removeAllOf(userId: string): Promise<void> {
      const files = await bucket.find({ 'metadata.userId': userId }).toArray();
      for (const file of files) await remove(`${AVATAR_PREFIX}${file.filename}`);
    },
  };
}

export type AvatarStore = ReturnType<typeof avatarStore>;
