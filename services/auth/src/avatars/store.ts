import { imageStore, type Connection } from '@ruilplein/service-kit';

/** Where avatars are served; the gateway routes this prefix to auth. */
export const AVATAR_PREFIX = '/uploads/avatars/';

/** Avatars in GridFS of the auth database (bucket `avatars`, owner in `metadata.userId`). */
export const avatarStore = (db: Connection) => imageStore(db, { bucket: 'avatars', prefix: AVATAR_PREFIX, ownerField: 'userId' });

export type AvatarStore = ReturnType<typeof avatarStore>;
