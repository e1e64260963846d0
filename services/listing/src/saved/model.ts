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

/** A listing is matched when created (who may see it then: Premium members) and when its head start ends (everyone). */
export type MatchPass = 'early' | 'open';

/**
 * One pass of one listing matched (`_id` `<listingId>:<pass>`, then `…:<pass>:<n>` for further
 * parts): inserting the first part is the rule "one notification per listing and member", whichever
 * replica or redelivery gets there first. It names the members alerted and carries their
 * `listing.saved-search.matched` events in its outbox.
 */
export interface SavedMatchDoc extends OutboxDoc {
  _id: string;
  listingId: string;
  pass: MatchPass;
  /** How many documents this pass wrote. */
  parts: number;
  /**
   * The members alerted, comma-joined: one value instead of hundreds (FerretDB stores each array
   * element with its type). Documents written before were arrays (kept two days): read both.
   */
  members: string | string[];
  at: Date;
}

/** The members a match document names, either way it was written. */
export const membersIn = (doc: Pick<SavedMatchDoc, 'members'>): string[] => (typeof doc.members === 'string' ? (doc.members ? doc.members.split(',') : []) : doc.members);

export const savedSearchCollection = (db: Connection) => collection<SavedSearchesDoc>(db, 'saved_searches');
export const savedMatchCollection = (db: Connection) => collection<SavedMatchDoc>(db, 'saved_matches');
export type SavedSearchCollection = mongo.Collection<SavedSearchesDoc>;
export type SavedMatchCollection = mongo.Collection<SavedMatchDoc>;

/** The ids of a pass's documents: the first is the claim. */
export const matchPartIds = (listingId: string, pass: MatchPass, parts: number) => Array.from({ length: parts }, (_, k) => (k ? `${listingId}:${pass}:${k}` : `${listingId}:${pass}`));

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
