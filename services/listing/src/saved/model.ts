import type { SavedSearch, SavedSearchAlert, SavedSearchFilters } from '@ruilplein/contracts';
import { collection, type Connection, type OutboxDoc } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/** One saved search as stored inside its member's document. */
export interface StoredSearch {
  name: string;
  filters: SavedSearchFilters;
  alert: SavedSearchAlert;
  createdAt: Date;
  lastVisitAt: Date;
  /** Listings it matched since `lastVisitAt`. */
  newSinceVisit: number;
}

/**
 * A member's saved searches, one document per member (`_id` the member): every read is by `_id`,
 * the limit is one conditional update on `n`, and the outbox of `listing.saved-search.changed`
 * rides in the same update as the change it announces.
 */
export interface SavedSearchesDoc extends OutboxDoc {
  _id: string;
  searches: Record<string, StoredSearch>;
  /** How many `searches` holds (the limit's counter). */
  n: number;
  /** One higher with each change of a definition (not of the counters): replicas apply newer ones only. */
  version: number;
}

/**
 * One listing matched for one member (`_id` `<listingId>:<userId>`): inserting it is the rule "one
 * notification per listing and member", whichever replica or redelivery gets there first, and it
 * carries the outbox of `listing.saved-search.matched`.
 */
export interface SavedMatchDoc extends OutboxDoc {
  _id: string;
  userId: string;
  listingId: string;
  searchIds: string[];
  at: Date;
}

export const savedSearchCollection = (db: Connection) => collection<SavedSearchesDoc>(db, 'saved_searches');
export const savedMatchCollection = (db: Connection) => collection<SavedMatchDoc>(db, 'saved_matches');
export type SavedSearchCollection = mongo.Collection<SavedSearchesDoc>;
export type SavedMatchCollection = mongo.Collection<SavedMatchDoc>;

export const matchId = (listingId: string, userId: string) => `${listingId}:${userId}`;

export function present(id: string, s: StoredSearch): SavedSearch {
  return {
    id,
    name: s.name,
    filters: s.filters,
    alert: s.alert,
    createdAt: new Date(s.createdAt).toISOString(),
    newSinceVisit: s.newSinceVisit ?? 0,
    lastVisitAt: new Date(s.lastVisitAt).toISOString(),
  };
}

/** A member's searches in creation order (then by id): the list's order and the order "first match" means. */
export function inOrder(searches: Record<string, StoredSearch> | undefined): [string, StoredSearch][] {
  return Object.entries(searches ?? {}).sort(([a, x], [b, y]) => +new Date(x.createdAt) - +new Date(y.createdAt) || (a < b ? -1 : a > b ? 1 : 0));
}
