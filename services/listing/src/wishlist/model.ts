import { collection, type Connection, type IndexSpec } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/**
 * A listing on a member's wishlist; one per member and listing (unique index). Carries the outbox
 * of `listing.wishlist.added` and `.removed`: a removed entry stays as a tombstone (`removedAt`)
 * until its removal is published, then the sweeper deletes it; adding it again revives it.
 */
export interface WishlistDoc {
  /** 24 lowercase hex digits. */
  _id: string;
  userId: string;
  listingId: string;
  createdAt: Date;
  /** Counts the entry's adds and removals (absent: 1, the first add). */
  version?: number;
  /** Taken off the wishlist: a tombstone until the removal is published. */
  removedAt?: Date;
}

/** Entries on the wishlist now (tombstones left out): every reader's filter. */
export const WISHED = { removedAt: { $exists: false } } as const;

export const wishlistCollection = (db: Connection) => collection<WishlistDoc>(db, 'wishlist');
export type WishlistCollection = mongo.Collection<WishlistDoc>;

/** Created at start, before the first entry: the unique one is the rule "once per member and listing". */
export const WISHLIST_INDEXES: readonly IndexSpec[] = [{ key: { userId: 1, listingId: 1 }, unique: true }, { key: { listingId: 1 } }];
