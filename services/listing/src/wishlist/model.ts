import { outboxField, type Connection } from '@ruilplein/service-kit';
import { Schema } from 'mongoose';

/** A listing on a member's wishlist; one per member and listing (unique index). Carries the outbox of `listing.wishlist.added`. */
export interface WishlistDoc {
  /** 24 lowercase hex digits. */
  _id: string;
  userId: string;
  listingId: string;
  createdAt: Date;
}

const schema = new Schema<WishlistDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    listingId: { type: String, required: true },
    createdAt: { type: Date, required: true },
    ...outboxField,
  },
  { versionKey: false },
);
schema.index({ userId: 1, listingId: 1 }, { unique: true });
schema.index({ listingId: 1 });

export const wishlistModel = (db: Connection) => db.model<WishlistDoc>('WishlistEntry', schema, 'wishlist');
export type WishlistModel = ReturnType<typeof wishlistModel>;
