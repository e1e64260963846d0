import { imageStore, type Connection } from '@ruilplein/service-kit';

/** Where listing photos are served; the gateway routes this prefix to the listing service. */
export const PHOTO_PREFIX = '/uploads/listings/';

/** Listing photos in GridFS (bucket `listing_photos`, owner in `metadata.ownerId`). */
export const photoStore = (db: Connection) => imageStore(db, { bucket: 'listing_photos', prefix: PHOTO_PREFIX, ownerField: 'ownerId' });

export type PhotoStore = ReturnType<typeof photoStore>;
