import type { ListingType } from '@ruilplein/contracts';
import { byIds, collection, type Connection, type IndexSpec } from '@ruilplein/service-kit';
import { Types, type mongo } from 'mongoose';

/** One stored photo: the re-encoded picture and its card-sized copy, both under /uploads/listings/. */
export interface ListingPhoto {
  imageUrl: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

/**
 * A listing. Its place is its owner's (copied from the members projection, kept current when the
 * owner moves). `version` counts its announced changes: 1 on create, one more per change, carried
 * by every `listing.listing.*` event so projections skip older states. Changes are conditional on
 * the version read (no transactions on the store).
 *
 * A deleted listing stays a short while as a tombstone (`deletedAt` set, `active: false`) so that
 * its `listing.listing.deleted` event can live in its own outbox, written in the same update as the
 * deletion; a sweeper removes it once the event is published. Readers use LIVE (or `active: true`).
 */
export interface ListingDoc {
  /** 24 lowercase hex digits (random; the demo seed's are derived from their seed key). */
  _id: string;
  ownerId: string;
  title: string;
  description: string;
  listingType: ListingType;
  /** Only a service can accept items in exchange. */
  acceptsItems: boolean;
  /** Visible to Premium members (and the owner) only. */
  isPremium: boolean;
  /** Euro, two decimals; null when none was given. */
  initialValue: number | null;
  categoryIds: string[];
  /** One to five, the first is the cover. */
  photos: ListingPhoto[];
  /** A tiny blurred stand-in for the first photo (data: URL). */
  placeholder: string;
  /** Listed: false once traded, or while its owner is banned. */
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  latitude?: number;
  longitude?: number;
  /** Set on a deleted listing until its deletion is announced (see above). */
  deletedAt?: Date;
  /** Its end (traded or removed) was announced to the members who wished for it: once per listing. */
  wishlistEnded?: true;
}

/** Not deleted: every read of listings adds this (or `active: true`, which implies it). */
export const LIVE = { deletedAt: { $exists: false } } as const;

/** The listings, in their own collection (documents exactly as typed: no `__v`, dates set by the writers). */
export const listingCollection = (db: Connection) => collection<ListingDoc>(db, 'listings');
export type ListingCollection = mongo.Collection<ListingDoc>;

export const LISTING_INDEXES: readonly IndexSpec[] = [
  // For MongoDB's planner (FerretDB ignores indexes): a member's listings, newest first.
  { key: { ownerId: 1, createdAt: -1 } },
];

/** A new listing id: random, 24 lowercase hex digits like every other id of the platform. */
export const newListingId = () => new Types.ObjectId().toHexString();

/**
 * The listings with these ids that also match `filter`, newest first. Reading by `_id` is the one
 * lookup the local FerretDB answers from an index; a member's listings are found through the ids
 * their owner document lists (owners.ts), never by scanning for `ownerId`.
 */
export async function listingsByIds(listings: ListingCollection, ids: readonly string[], filter: mongo.Filter<ListingDoc> = {}): Promise<ListingDoc[]> {
  const docs = await byIds(listings, ids, filter);
  return docs.sort((a, b) => +new Date(b.createdAt) - +new Date(a.createdAt) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
}
