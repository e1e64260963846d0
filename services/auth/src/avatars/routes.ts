import { pipeline } from 'node:stream/promises';
import { DEFAULT_AVATAR } from '@ruilplein/contracts';
import { notFound, type Api } from '@ruilplein/service-kit';
import { renderDefaultAvatar } from './image.ts';
import { AVATAR_PREFIX, type AvatarStore } from './store.ts';

/** A stored avatar's URL names one upload forever; the default picture may be redrawn by a release. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DEFAULT_CACHE = 'public, max-age=86400';

/** Serves `/uploads/avatars/<id>.webp` from GridFS and the default avatar (binary, so plain express). */
export function avatarHttp(api: Api, store: AvatarStore) {
  let defaultAvatar: Promise<Buffer> | undefined;

  api.router.get(DEFAULT_AVATAR, async (_req, res) => {
    defaultAvatar ??= renderDefaultAvatar();
    res.set({ 'content-type': 'image/jpeg', 'cache-control': DEFAULT_CACHE }).send(await defaultAvatar);
  });

  api.router.get(`${AVATAR_PREFIX}:file`, async (req, res) => {
    const avatar = await store.find(req.params.file);
    if (!avatar) throw notFound('Deze afbeelding bestaat niet.');
    res.set({ 'content-type': 'image/webp', 'cache-control': IMMUTABLE, etag: avatar.etag });
    if (req.headers['if-none-match'] === avatar.etag) {
      res.status(304).end();
      return;
    }
    res.set('content-length', String(avatar.size));
    await pipeline(avatar.stream(), res);
  });
}
