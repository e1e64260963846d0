import { DEFAULT_CRATE } from '@ruilplein/contracts';
import { imageRoutes, type Router } from '@ruilplein/service-kit';
import { renderCrate } from './image.ts';
import type { PhotoStore } from './store.ts';

/** Serves `/uploads/listings/<id>.webp` from GridFS and the default crate's picture (binary: plain express). */
export const photoPlain = (router: Router, store: PhotoStore) => imageRoutes(router, store, { path: DEFAULT_CRATE.imageUrl, contentType: 'image/webp', render: renderCrate });
