import { now as platformNow, HttpError, outboxFields, startPeriodic, type Worker } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { ProcessedPhoto } from '../photos/image.ts';
import type { ListingContext } from './context.ts';
import { listingCreated, listingDeleted, listingUpdated } from './events.ts';
import { placeOf } from '../members/model.ts';
import { listingsByIds, LIVE, newListingId, type ListingDoc, type ListingPhoto } from './model.ts';
import { wishersOf, wishlistEndedEvents, type WishlistEnd } from '../wishlist/ended.ts';

/** The fields a member fills in (the form, after validation). */
export interface ListingFields {
  title: string;
  description: string;
  listingType: ListingDoc['listingType'];
  acceptsItems: boolean;
  isPremium: boolean;
  initialValue: number | null;
  categoryIds: string[];
}

const ATTEMPTS = 5;
const busy = () => new HttpError(409, 'Deze listing werd tegelijk ook gewijzigd. Probeer het opnieuw.');

/** Stores processed photos (each with its thumbnail) and answers their paths; on failure removes what it stored. */
async function storePhotos(ctx: ListingContext, ownerId: string, photos: readonly ProcessedPhoto[]): Promise<ListingPhoto[]> {
  const stored: string[] = [];
  try {
    const result: ListingPhoto[] = [];
    for (const photo of photos) {
      const imageUrl = await ctx.photos.save(ownerId, photo.data);
      stored.push(imageUrl);
      const thumbnailUrl = await ctx.photos.save(ownerId, photo.thumbnail);
      stored.push(thumbnailUrl);
      result.push({ imageUrl, thumbnailUrl, width: photo.width, height: photo.height });
    }
    return result;
  } catch (err) {
    await forget(ctx, stored);
    throw err;
  }
}

const photoPaths = (photos: readonly ListingPhoto[]) => photos.flatMap((p) => [p.imageUrl, p.thumbnailUrl]);

/** Removes files, logging rather than failing: the change they belonged to is decided already. */
async function forget(ctx: ListingContext, paths: readonly string[]): Promise<void> {
  await ctx.photos.removeAll(paths).catch((err: unknown) => ctx.logger.warn({ err, paths }, 'listing photos not removed'));
}

export interface NewListing {
  ownerId: string;
  fields: ListingFields;
  photos: readonly ProcessedPhoto[];
  /** Premium members have no limit on active listings. */
  unlimited: boolean;
  /** The owner's place, copied onto the listing. */
  place?: { latitude: number; longitude: number };
  /** The demo seed's own ids and dates; otherwise new and now. */
  id?: string;
  createdAt?: Date;
}

/**
 * Places a listing: takes a place among the owner's active listings (403 at the limit), stores the
 * photos, then writes the listing with its `listing.listing.created` event. What went before a
 * failure is undone (photos removed, place given back).
 */
export async function createListing(ctx: ListingContext, input: NewListing, now = platformNow()): Promise<ListingDoc> {
  const id = input.id ?? newListingId();
  await ctx.counter.take(input.ownerId, id, input.unlimited, now);
  let photos: ListingPhoto[] = [];
  let doc: ListingDoc;
  try {
    photos = await storePhotos(ctx, input.ownerId, input.photos);
    doc = {
      _id: id,
      ownerId: input.ownerId,
      ...input.fields,
      photos,
      placeholder: input.photos[0]?.placeholder ?? '',
      active: true,
      createdAt: input.createdAt ?? now,
      updatedAt: now,
      version: 1,
      ...input.place,
    };
    const { _id, ...fields } = doc;
    const result = await ctx.listings.updateOne({ _id }, { $setOnInsert: { ...fields, ...outboxFields(listingCreated(doc)) } }, { upsert: true });
    if (result.upsertedCount !== 1) throw new HttpError(409, 'Deze listing bestaat al.');
    ctx.relay.kick(ctx.listings.collectionName, id);
  } catch (err) {
    await forget(ctx, photoPaths(photos));
    await ctx.counter.release(input.ownerId, [id]).catch((e: unknown) => ctx.logger.warn({ err: e, listingId: id }, 'place of a failed listing not given back'));
    throw err;
  }
  const moved = await followOwnersPlace(ctx, input.ownerId, input.place).catch((err: unknown) => {
    ctx.logger.warn({ err, listingId: id }, 'new listing not moved to its owner’s new place');
    return false;
  });
  return (moved && (await ctx.listings.findOne({ _id: id }))) || doc;
}

/**
 * The owner may have moved while a listing was being placed: the members consumer then moved the
 * owner's listings before this one existed, and it kept the old place. Checked once it is written.
 */
async function followOwnersPlace(ctx: ListingContext, ownerId: string, used: NewListing['place']): Promise<boolean> {
  const member = await ctx.members.byId(ownerId);
  if (!member) return false;
  const now = placeOf(member);
  if (now?.latitude === used?.latitude && now?.longitude === used?.longitude) return false;
  await moveListingsOf(ctx, ownerId, now);
  return true;
}

interface Change {
  set: Partial<ListingDoc>;
  unset?: readonly ('latitude' | 'longitude')[];
  /** The change ends the listing for these wishers: announced with it, unless its end was announced before. */
  wishlistEnd?: WishlistEnd;
}

/**
 * One announced change of a live listing: read it, let `decide` say what changes (undefined:
 * nothing), write that conditionally on the version read with its event (updated, or deleted when
 * `deletes`), again when someone else changed it in between. Undefined when the listing is gone.
 */
export async function changeListing(
  ctx: ListingContext,
  id: string,
  decide: (doc: ListingDoc) => Change | undefined,
  options: { deletes?: boolean; now?: Date } = {},
): Promise<{ before: ListingDoc; after: ListingDoc } | undefined> {
  const now = options.now ?? platformNow();
  for (let i = 0; i < ATTEMPTS; i++) {
    const before = await ctx.listings.findOne({ _id: id, ...LIVE });
    if (!before) return undefined;
    const change = decide(before);
    if (!change) return { before, after: before };
    const version = before.version + 1;
    const ends = change.wishlistEnd?.userIds.length && !before.wishlistEnded ? change.wishlistEnd : undefined;
    const set: Partial<ListingDoc> = { ...change.set, ...(ends && { wishlistEnded: true }) };
    const after: ListingDoc = { ...before, ...set, version, updatedAt: now };
    for (const field of change.unset ?? []) delete after[field];
    const event = options.deletes ? listingDeleted(after) : listingUpdated(after);
    // The wishers' events go in the same write: once per listing, and never lost to a crash.
    const events = [event, ...(ends ? wishlistEndedEvents(after, ends) : [])];
    const result = await ctx.listings.updateOne(
      { _id: id, version: before.version, ...LIVE },
      {
        $set: { ...set, version, updatedAt: now, ...outboxFields(...events) },
        ...(change.unset?.length && { $unset: Object.fromEntries(change.unset.map((f) => [f, ''])) }),
      },
    );
    if (result.modifiedCount === 1) {
      ctx.relay.kick(ctx.listings.collectionName, id);
      return { before, after };
    }
  }
  throw busy();
}

/**
 * Saves an edit of the owner's listing. New photos replace the old ones (stored first, the old
 * files removed once the listing points to the new); no photos keeps them. `check` runs against
 * the listing as it is written (ownership, and anything else the caller insists on).
 */
export async function updateListing(
  ctx: ListingContext,
  id: string,
  fields: ListingFields,
  photos: readonly ProcessedPhoto[] | undefined,
  check: (doc: ListingDoc) => void,
  now = platformNow(),
): Promise<ListingDoc | undefined> {
  const current = await ctx.listings.findOne({ _id: id, ...LIVE }, { projection: { ownerId: 1 } });
  if (!current) return undefined;
  const stored = photos?.length ? await storePhotos(ctx, current.ownerId, photos) : undefined;
  let changed;
  try {
    changed = await changeListing(
      ctx,
      id,
      (doc) => {
        check(doc);
        return { set: { ...fields, ...(stored && { photos: stored, placeholder: photos![0]!.placeholder ?? '' }) } };
      },
      { now },
    );
  } catch (err) {
    if (stored) await forget(ctx, photoPaths(stored));
    throw err;
  }
  if (!changed) {
    if (stored) await forget(ctx, photoPaths(stored));
    return undefined;
  }
  if (stored) await forget(ctx, photoPaths(changed.before.photos));
  return changed.after;
}

/**
 * Deletes a listing: one write marks it deleted with its `listing.listing.deleted` event (the
 * tombstone is swept once that is published) and, for those who wished for it, `listing.wishlist.ended`
 * ('removed'); then its place among the owner's active listings, the wishlist entries on it and its
 * photos go. Answers the listing as it was, or undefined.
 */
export async function deleteListing(ctx: ListingContext, id: string, options: { keepPlace?: boolean; now?: Date } = {}): Promise<ListingDoc | undefined> {
  const now = options.now ?? platformNow();
  const wishlistEnd: WishlistEnd = { reason: 'removed', userIds: await wishersOf(ctx, id) };
  const changed = await changeListing(ctx, id, () => ({ set: { active: false, deletedAt: now }, wishlistEnd }), { deletes: true, now });
  if (!changed) return undefined;
  const { before } = changed;
  if (!options.keepPlace) await ctx.counter.release(before.ownerId, [id], { unlist: true });
  await ctx.wishlist.deleteMany({ listingId: id });
  await forget(ctx, photoPaths(before.photos));
  return before;
}

/** The owner's live listings (tombstones left out). */
const listingsOf = async (ctx: ListingContext, ownerId: string, filter: Record<string, unknown> = {}) =>
  listingsByIds(ctx.listings, (await ctx.counter.ids(ownerId)).all, { ownerId, ...LIVE, ...filter });

/**
 * For moderation (moderation/consumer.ts): a suspended member's listings leave search and offers.
 * Each active listing becomes inactive (announced), and the member's count goes to 0. The end of
 * the suspension does not relist them by itself.
 */
export async function deactivateListingsOfSuspendedMember(ctx: ListingContext, ownerId: string): Promise<number> {
  let count = 0;
  for (const { _id } of await listingsOf(ctx, ownerId, { active: true })) {
    const changed = await changeListing(ctx, _id, (doc) => (doc.active ? { set: { active: false } } : undefined));
    if (changed && changed.before.active) count++;
  }
  await ctx.counter.releaseAll(ownerId);
  return count;
}

/**
 * The member's account is gone: every listing of theirs is deleted (announced one by one), with
 * their counter, their wishlist, the wishlist entries on their listings and all their photos.
 * Safe to run twice.
 */
export async function deleteListingsOfDeletedMember(ctx: ListingContext, ownerId: string): Promise<number> {
  const ids: string[] = [];
  for (const { _id } of await listingsOf(ctx, ownerId)) {
    if (await deleteListing(ctx, _id, { keepPlace: true })) ids.push(_id);
  }
  await ctx.owners.deleteOne({ _id: ownerId });
  await ctx.wishlist.deleteMany({ userId: ownerId });
  await ctx.photos.removeAllOf(ownerId);
  return ids.length;
}

/** A listing's place is its owner's: after the owner moved (or cleared their city), each listing follows, announced. */
export async function moveListingsOf(ctx: ListingContext, ownerId: string, place: { latitude: number; longitude: number } | undefined): Promise<number> {
  let moved = 0;
  for (const listing of await listingsOf(ctx, ownerId)) {
    if (listing.latitude === place?.latitude && listing.longitude === place?.longitude) continue;
    const changed = await changeListing(ctx, listing._id, (doc) => {
      if (doc.latitude === place?.latitude && doc.longitude === place?.longitude) return undefined;
      return place ? { set: { latitude: place.latitude, longitude: place.longitude } } : { set: {}, unset: ['latitude', 'longitude'] };
    });
    if (changed && changed.after !== changed.before) moved++;
  }
  return moved;
}

/** Tombstones kept at least this long (a relay publishes within seconds). */
const TOMBSTONE_MIN_AGE_MS = 60_000;

/** Removes deleted listings and wishlist entries whose deletion is published (nothing pending or parked in their outbox). */
export async function sweepTombstones(ctx: Pick<ListingContext, 'listings' | 'wishlist'>, now = platformNow()): Promise<number> {
  const published = { outboxPending: { $exists: false }, outboxParkedAt: { $exists: false } };
  const before = { $lt: new Date(now.getTime() - TOMBSTONE_MIN_AGE_MS) };
  // Found by a read, removed one by one by _id (with the same condition): one deleteMany would
  // hold the local store's write turn for a whole scan of the collection.
  const sweep = async <T extends { _id: string }>(collection: mongo.Collection<T>, swept: mongo.Filter<T>) => {
    let deleted = 0;
    for await (const { _id } of collection.find(swept, { projection: { _id: 1 } })) {
      deleted += (await collection.deleteOne({ _id, ...swept } as mongo.Filter<T>)).deletedCount;
    }
    return deleted;
  };
  return (await sweep(ctx.listings, { deletedAt: before, ...published })) + (await sweep(ctx.wishlist, { removedAt: before, ...published }));
}

/**
 * Sweeps tombstones every `intervalMs` (each replica), and never more often than twenty times a
 * sweep took (startPeriodic's pacing): on a store that scans for them, sweeping stays a small
 * share of its time.
 */
export function startTombstoneSweeper(ctx: Pick<ListingContext, 'listings' | 'wishlist' | 'logger'>, intervalMs = 60_000): Worker {
  return startPeriodic({ intervalMs, restFactor: 20, work: () => sweepTombstones(ctx), logger: ctx.logger, what: 'sweeping deleted listings and wishlist entries' });
}
