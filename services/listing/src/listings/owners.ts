import { eventRegistry, FREE_ACTIVE_LISTINGS_MAX, LISTING_MESSAGES } from '@ruilplein/contracts';
import { now as platformNow, collection, createEvent, forbidden, HttpError, outboxFields, type Connection } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import { LIVE, type ListingCollection } from './model.ts';

/**
 * Per member, the ids of their active listings (with when each was added): the counter the
 * five-listing limit is checked against, and the outbox of `listing.owner.counted`. Kept in one
 * small document per member and changed only conditionally on its `version`, so two creations at
 * once cannot both take the fifth place. A place is taken before the listing is written; should
 * the writer die in between, the place is given back the next time the member is at the limit
 * (`STALE_AFTER_MS`).
 *
 * It also lists every live listing of the member (active or not), added with the place and removed
 * on deletion, so that a member's listings are read by `_id`: the one lookup FerretDB answers
 * without reading the whole collection. A listing is listed before it is written, so the list holds
 * at least every live listing; readers check each one they fetch.
 */
export interface OwnerDoc {
  /** The member's user id. */
  _id: string;
  /** Counts the changes; the counted event carries it. */
  version: number;
  active: Record<string, Date>;
  /** Absent on documents from before it: filled from the listings on first use. */
  listed?: Record<string, Date>;
}

export const ownerCollection = (db: Connection) => collection<OwnerDoc>(db, 'listing_owners');
export type OwnerCollection = mongo.Collection<OwnerDoc>;

/** A place taken this long ago whose listing does not exist was left by a writer that died. */
const STALE_AFTER_MS = 2 * 60_000;
const ATTEMPTS = 8;

const busy = () => new HttpError(409, 'Je listings worden net ook elders gewijzigd. Probeer het opnieuw.');

export interface OwnerCounter {
  /** Active listings as counted now (0 for a member without any). */
  count(ownerId: string): Promise<number>;
  /** Ids of the member's live listings (`all`) and of those holding a place (`active`); a superset of each. */
  ids(ownerId: string): Promise<{ all: string[]; active: string[] }>;
  /** Refuses (403) a member at the limit before any work is done; `take` checks again. */
  check(ownerId: string, unlimited: boolean, now?: Date): Promise<void>;
  /** Takes a place for `listingId`; over the limit (unless unlimited) a 403 with the limit's message. */
  take(ownerId: string, listingId: string, unlimited: boolean, now?: Date): Promise<void>;
  /** Gives back the places of these listings (no event when none was held); `unlist` also drops them from the list (deleted). */
  release(ownerId: string, listingIds: readonly string[], options?: { unlist?: boolean }): Promise<void>;
  /** Gives back every place (the member's listings were all deactivated). */
  releaseAll(ownerId: string): Promise<void>;
}

export function ownerCounter(owners: OwnerCollection, listings: ListingCollection, kick: (id: string) => void): OwnerCounter {
  type Listed = OwnerDoc & { listed: Record<string, Date> };

  /**
   * The member's document with its list. A member without one has never placed a listing (the
   * place is taken first); a document from before the list gets it from the listings themselves
   * (one read by owner), with the places of the active ones.
   */
  const read = async (ownerId: string): Promise<Listed> => {
    for (let i = 0; i < ATTEMPTS; i++) {
      const doc = await owners.findOne({ _id: ownerId });
      if (doc?.listed) return { ...doc, active: doc.active ?? {}, listed: doc.listed };
      if (!doc) {
        try {
          await owners.insertOne({ _id: ownerId, version: 0, active: {}, listed: {} });
          return { _id: ownerId, version: 0, active: {}, listed: {} };
        } catch (err) {
          if ((err as { code?: number }).code !== 11000) throw err;
          continue;
        }
      }
      const live = await listings.find({ ownerId, ...LIVE }, { projection: { _id: 1, active: 1, createdAt: 1 } }).toArray();
      const listed = Object.fromEntries(live.map((l) => [l._id, l.createdAt]));
      const active = { ...doc.active, ...Object.fromEntries(live.filter((l) => l.active).map((l) => [l._id, l.createdAt])) };
      const filled = await owners.updateOne({ _id: ownerId, version: doc.version, listed: { $exists: false } }, { $set: { active, listed } });
      if (filled.modifiedCount === 1) return { ...doc, active, listed };
    }
    throw busy();
  };

  /** One conditional write: the new set of places (and list), its count announced with the next version. */
  const write = async (doc: Listed, set: Record<string, Date>, unset: readonly string[], unlist: readonly string[] = []): Promise<boolean> => {
    const count = Object.keys(doc.active).length + Object.keys(set).filter((id) => !(id in doc.active)).length - unset.filter((id) => id in doc.active).length;
    const version = doc.version + 1;
    const event = createEvent(eventRegistry, 'listing.owner.counted', { userId: doc._id, version, activeListings: count });
    const removed = [...unset.map((id) => `active.${id}`), ...unlist.map((id) => `listed.${id}`)];
    const result = await owners.updateOne(
      { _id: doc._id, version: doc.version },
      {
        $set: {
          version,
          ...Object.fromEntries(Object.entries(set).flatMap(([id, at]) => [[`active.${id}`, at], [`listed.${id}`, doc.listed[id] ?? at]])),
          ...outboxFields(event),
        },
        ...(removed.length && { $unset: Object.fromEntries(removed.map((path) => [path, ''])) }),
      },
    );
    if (result.modifiedCount !== 1) return false;
    kick(doc._id);
    return true;
  };

  /** Places whose listing is gone or no longer active (those of a dead writer only after a while). */
  const stale = async (doc: OwnerDoc, now: Date): Promise<string[]> => {
    const ids = Object.keys(doc.active);
    // One read: with two, a listing written between them would look present but inactive, and its place be given away.
    const found = new Map((await listings.find({ _id: { $in: ids } }, { projection: { _id: 1, active: 1 } }).toArray()).map((l) => [l._id, l.active]));
    return ids.filter((id) => found.get(id) !== true && (found.has(id) || now.getTime() - new Date(doc.active[id]!).getTime() > STALE_AFTER_MS));
  };

  /** At the limit: the stale places that may be given back, or a 403 when that is not enough. */
  const freePlaces = async (doc: OwnerDoc, now: Date): Promise<string[]> => {
    const held = Object.keys(doc.active ?? {}).length;
    if (held < FREE_ACTIVE_LISTINGS_MAX) return [];
    const unset = await stale({ ...doc, active: doc.active ?? {} }, now);
    if (held - unset.length >= FREE_ACTIVE_LISTINGS_MAX) throw forbidden(LISTING_MESSAGES.activeLimit);
    return unset;
  };

  return {
    async count(ownerId) {
      const doc = await owners.findOne({ _id: ownerId }, { projection: { active: 1 } });
      return Object.keys(doc?.active ?? {}).length;
    },

    async ids(ownerId) {
      const doc = await owners.findOne({ _id: ownerId });
      if (!doc) return { all: [], active: [] };
      const listed = doc.listed ? doc : await read(ownerId);
      return { all: Object.keys(listed.listed ?? {}), active: Object.keys(listed.active ?? {}) };
    },

    async check(ownerId, unlimited, now = platformNow()) {
      if (unlimited) return;
      const doc = await owners.findOne({ _id: ownerId });
      if (doc) await freePlaces(doc, now);
    },

    async take(ownerId, listingId, unlimited, now = platformNow()) {
      for (let i = 0; i < ATTEMPTS; i++) {
        const doc = await read(ownerId);
        // A place this listing holds already (a retried creation) is not a new one.
        const unset = unlimited || listingId in doc.active ? [] : await freePlaces(doc, now);
        if (await write(doc, { [listingId]: now }, unset)) return;
      }
      throw busy();
    },

    async release(ownerId, listingIds, options = {}) {
      for (let i = 0; i < ATTEMPTS; i++) {
        const doc = await owners.findOne({ _id: ownerId });
        if (!doc) return;
        const held = listingIds.filter((id) => doc.active && id in doc.active);
        const unlist = options.unlist ? listingIds.filter((id) => doc.listed && id in doc.listed) : [];
        if (!held.length && !unlist.length) return;
        if (await write({ ...doc, active: doc.active ?? {}, listed: doc.listed ?? {} }, {}, held, unlist)) return;
      }
      throw busy();
    },

    async releaseAll(ownerId) {
      for (let i = 0; i < ATTEMPTS; i++) {
        const doc = await owners.findOne({ _id: ownerId });
        const held = Object.keys(doc?.active ?? {});
        if (!doc || !held.length) return;
        if (await write({ ...doc, active: doc.active, listed: doc.listed ?? {} }, {}, held)) return;
      }
      throw busy();
    },
  };
}
