import { DEFAULT_AVATAR } from '@ruilplein/contracts';
import { imageRoutes, type Router } from '@ruilplein/service-kit';
import { renderDefaultAvatar } from './image.ts';
import type { AvatarStore } from './store.ts';

/** Serves `/uploads/avatars/<id>.webp` from GridFS and the default avatar (binary, so plain express). */
export const avatarPlain = (router: Router, store: AvatarStore) => imageRoutes(router, store, { path: DEFAULT_AVATAR, contentType: 'image/jpeg', render: renderDefaultAvatar });
