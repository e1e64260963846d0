import { EventEnvelopeSchema, eventRegistry, PREMIUM_HEAD_START_HOURS, SAVED_SEARCH_MATCHED_MAX_MEMBERS, type SavedSearchAlert, type SavedSearchesChangedEvent } from '@ruilplein/contracts';
import { listingPasses, prepareListing, roundKm, viewerAt, viewerMay, type ListingState, type PreparedListing, type Vec3, type Viewer } from '@ruilplein/search';
import { createEvent, followStream, nowMs, packedOutboxDocument, wallClockMs, type Bus, type Connection, type Logger, type OutboxRelay, type StreamFeed, type Worker } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import { LIVE, listingCollection, listingsByIds } from '../listings/model.ts';
import { fromDoc, type SearchService } from '../search/sync.ts';
import { WISHED, wishlistCollection } from '../wishlist/model.ts';
import { chordKm, compiledOf, degreesOf, InterestBook, type BookSearch, type Interest } from './book.ts';
import { inOrder, matchPartIds, membersIn, savedMatchCollection, savedSearchCollection, type MatchPass, type SavedMatchCollection, type SavedMatchDoc, type SavedSearchCollection, type SavedSearchesDoc } from './model.ts';

/** The six-hour head start (search's rule): standard members are matched when it ends. */
const HEAD_START_MS = PREMIUM_HEAD_START_HOURS * 3600_000;
/** A created listing older than this when its event arrives (a restart reading back) is not matched at once, only queued for its head start. */
const FRESH_MS = 10 * 60_000;
/** How far back a start reads created listings, so head starts that end after a restart still alert. */
const REPLAY_MS = HEAD_START_MS + 15 * 60_000;
const LOAD_BATCH = 5000;
/** Members per match document (one event each): a listing that reaches more is written in parts. */
const MEMBERS_PER_DOC = SAVED_SEARCH_MATCHED_MAX_MEMBERS;
/** How long match documents are kept: past any replay of created listings (REPLAY_MS), so no pass runs twice. */
const HOUR_MS = 3600_000;
const KEEP_MATCHES_MS = 2 * 24 * HOUR_MS;
const ALERT_RANK: Record<SavedSearchAlert, number> = { direct: 2, digest: 1, off: 0 };

export interface SavedAlertsDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  search: SearchService;
  relay: Pick<OutboxRelay, 'kick'>;
  /** The categories' names (their words count for `q`, as in search). */
  categories?: () => ReadonlyMap<string, { name: string }>;
  /** How often the head-start pass looks for listings that became visible to everyone. Default 30 s. */
  headStartCheckMs?: number;
  /** How often members who moved are filed again, and wishlists read again (a backstop: adds and removals are announced). Default 60 s and 30 min. */
  refileMs?: number;
  wishlistReloadMs?: number;
  /** How often the new-match counters are written (coalesced per search). Default 1 s. */
  counterFlushMs?: number;
}

export interface SavedAlerts extends Worker {
  readonly book: InterestBook;
  ready: Promise<void>;
  isReady(): boolean;
  /** The categories' names as `matches` reads them for `q`. */
  categoryNames(): ReadonlyMap<string, { name: string }> | undefined;
  /** A member as `matches` reads them, from this replica's search tables (place, Premium). */
  viewerOf(userId: string, now: number): Viewer;
  /** A change this replica wrote: applied here at once (the stream brings it to the others). */
  applyChanged(event: SavedSearchesChangedEvent): void;
  /** Matches one listing against the saved searches near it and queues the alerts (pass: 'early' when created, 'open' when its head start ended); answers how many members were alerted. */
  matchListing(listing: ListingState, pass?: MatchPass): Promise<number>;
  /** One head-start pass now: listings whose head start has ended are matched again (standard members see them now). */
  headStartPass(): Promise<number>;
}

export const bookSearchesOf = (searches: SavedSearchesChangedEvent['searches']): BookSearch[] =>
  searches.map((s) => ({ id: s.id, name: s.name, alert: s.alert, createdAt: Date.parse(s.createdAt), filters: s.filters }));

/**
 * Saved-search alerts on this replica: every member's saved searches (and wishlists, for the demand
 * preview) in memory by place, loaded from the store at start and followed from the listing stream.
 * Each created listing is matched at once (Premium members see it now), and again when its
 * head start ends (everyone does). Every replica matches every listing; the match document keyed by
 * listing and member is inserted by one of them only, and its outbox announces the alert once.
 */
export function startSavedAlerts(deps: SavedAlertsDeps): SavedAlerts {
  const { db, bus, logger, search } = deps;
  const searches = savedSearchCollection(db);
  const matched = savedMatchCollection(db);
  const listings = listingCollection(db);
  const wishlist = wishlistCollection(db);
  const placeOf = (userId: string) => search.engine.members.searcher(userId, 0).place;
  const categoriesOf = (listingId: string) => {
    const index = search.engine.index;
    const slot = index.find(listingId);
    return slot >= 0 && index.has(listingId) ? index.categoryIdsOf(slot) : undefined;
  };
  const book = new InterestBook(placeOf, categoriesOf);
  const counters = new MatchCounters(searches, logger);
  /** Listings waiting for their head start to end, in creation order. */
  const waiting: { id: string; due: number }[] = [];
  const feeds: StreamFeed[] = [];
  const loops: Promise<void>[] = [];
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  let loaded = false;

  const viewerOf = (userId: string, now: number): Viewer => {
    const members = search.engine.members;
    const slot = members.find(userId);
    if (slot < 0) return { id: userId, roles: [] };
    const place = members.searcher(userId, now).place;
    return { id: userId, ...members.membership(slot), ...(place && degreesOf(place)) };
  };

  const applyChanged = (event: SavedSearchesChangedEvent) => book.setSearches(event.userId, event.version, bookSearchesOf(event.searches));

  const matchListing = async (listing: ListingState, pass: MatchPass = 'early'): Promise<number> => {
    if (!listing.active) return 0;
    const now = nowMs();
    const prepared = prepareListing(listing, deps.categories?.());
    const found = findMatches(book, prepared, viewerOf, search.hiddenFor(listing.ownerId), now);
    if (!found.length) return 0;
    const queued = await queueAlerts({ matched, logger }, listing, found, prepared.at, now, pass);
    for (const id of queued.docIds) deps.relay.kick(matched.collectionName, id);
    counters.add(queued.alerted);
    return queued.alerted.length;
  };

  const headStartPass = async () => {
    const now = nowMs();
    let alerted = 0;
    while (waiting.length && waiting[0]!.due <= now && !stopped) {
      let n = 0;
      while (n < waiting.length && n < 200 && waiting[n]!.due <= now) n++;
      const batch = waiting.splice(0, n);
      const docs = await listingsByIds(listings, batch.map((w) => w.id), LIVE);
      for (const doc of docs) if (doc.active) alerted += await matchListing(fromDoc(doc), 'open');
    }
    return alerted;
  };

  const onCreated = async (listing: ListingState) => {
    const created = new Date(listing.createdAt).getTime();
    if (created >= nowMs() - FRESH_MS) await matchListing(listing);
    waiting.push({ id: listing.id, due: created + HEAD_START_MS });
  };

  const follow = async (options: { filterSubjects: string[]; startSeq?: number; startTime?: string }, handle: (type: string, payload: unknown) => Promise<unknown> | unknown) => {
    const messages = await followStream(bus, 'listing', options);
    feeds.push(messages);
    loops.push(
      (async () => {
        for await (const msg of messages) {
          try {
            const envelope = EventEnvelopeSchema.parse(msg.json());
            await handle(envelope.type, envelope.payload);
          } catch (err) {
            logger.warn({ err, subject: msg.subject, seq: msg.seq }, 'saved searches: event not applied');
          }
        }
      })(),
    );
  };

  const reloadWishlists = async () => {
    const byMember = new Map<string, string[]>();
    for await (const w of wishlist.find(WISHED, { batchSize: LOAD_BATCH, projection: { userId: 1, listingId: 1 } })) {
      if (stopped) return;
      const list = byMember.get(w.userId) ?? [];
      list.push(w.listingId);
      byMember.set(w.userId, list);
    }
    for (const [userId, ids] of byMember) book.setWishes(userId, ids);
    book.clearWishesExcept(new Set(byMember.keys()));
  };

  const load = async () => {
    await search.ready;
    // The position first: every change announced up to it is in the store when the load reads it;
    // the ones after it apply again only when newer.
    const seq = (await bus.jsm.streams.info('listing')).state.last_seq;
    for await (const doc of searches.find({}, { batchSize: LOAD_BATCH, projection: { outbox: 0, outboxParked: 0 } })) {
      if (stopped) return;
      const list = inOrder(doc.searches).map(([id, s]) => ({ id, name: s.name, alert: s.alert, createdAt: +new Date(s.createdAt), filters: s.filters }));
      book.setSearches(doc._id, doc.version, list);
    }
    await reloadWishlists();
    await follow({ filterSubjects: ['listing.saved-search.changed', 'listing.wishlist.added', 'listing.wishlist.removed', 'listing.wishlist.ended'], startSeq: seq + 1 }, (type, payload) => {
      if (type === 'listing.saved-search.changed') applyChanged(eventRegistry[type].parse(payload));
      else if (type === 'listing.wishlist.added') {
        const p = eventRegistry[type].parse(payload);
        book.addWish(p.userId, p.listingId);
      } else if (type === 'listing.wishlist.removed') {
        const p = eventRegistry[type].parse(payload);
        book.endWishes(p.listingId, [p.userId]);
      } else if (type === 'listing.wishlist.ended') {
        const p = eventRegistry[type].parse(payload);
        book.endWishes(p.listingId, p.userIds);
      }
    });
    // A stream position (real time), as search's interest: the platform's clock may be moved.
    await follow({ filterSubjects: ['listing.listing.created'], startTime: new Date(wallClockMs() - REPLAY_MS).toISOString() }, (type, payload) =>
      type === 'listing.listing.created' ? onCreated(eventRegistry[type].parse(payload)) : undefined,
    );
    timers.push(setInterval(() => void headStartPass().catch((err: unknown) => logger.warn({ err }, 'saved searches: head-start pass failed')), deps.headStartCheckMs ?? 30_000).unref());
    timers.push(setInterval(() => book.refile(), deps.refileMs ?? 60_000).unref());
    timers.push(setInterval(() => void counters.flush(), deps.counterFlushMs ?? 1000).unref());
    timers.push(setInterval(() => void forgetOldMatches(matched, nowMs() - KEEP_MATCHES_MS).catch((err: unknown) => logger.warn({ err }, 'saved searches: old match documents not removed')), HOUR_MS).unref());
    timers.push(setInterval(() => void reloadWishlists().catch((err: unknown) => logger.warn({ err }, 'saved searches: wishlists not read again')), deps.wishlistReloadMs ?? 30 * 60_000).unref());
    loaded = true;
    logger.info(book.size, 'saved searches loaded');
  };

  const ready = (async () => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        return await load();
      } catch (err) {
        logger.warn({ err, attempt }, 'saved searches not loaded; trying again');
        for (const feed of feeds.splice(0)) await feed.close().catch(() => undefined);
        await Promise.all(loops.splice(0));
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)).unref());
      }
    }
  })();

  return {
    book,
    ready,
    isReady: () => loaded,
    categoryNames: () => deps.categories?.(),
    viewerOf,
    applyChanged,
    matchListing,
    headStartPass,
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await ready.catch(() => undefined);
      for (const feed of feeds) await feed.close();
      await Promise.all(loops);
      await counters.flush();
    },
  };
}

type Found = { interest: Interest; hits: BookSearch[] };

/**
 * Queues one alert per member found, in one write: the match document of this listing and pass
 * (`<listing>:<pass>`, more parts past MEMBERS_PER_DOC members) names the members and carries one
 * `listing.saved-search.matched` for them all in its outbox. Inserting it is the rule "once per listing": the
 * replica (or redelivery) that gets the duplicate key alerts nobody. The open pass leaves out whom
 * the early pass alerted. Answers who was alerted and the documents written (for the relay).
 */
export async function queueAlerts(
  stores: { matched: SavedMatchCollection; logger: Logger },
  listing: ListingState,
  found: Found[],
  at: Vec3 | undefined,
  now: number,
  pass: MatchPass,
): Promise<{ alerted: Found[]; docIds: string[] }> {
  const { matched } = stores;
  let todo = found;
  if (pass === 'open') {
    const early = await membersOf(matched, listing.id, 'early');
    if (early.size) todo = found.filter((f) => !early.has(f.interest.userId));
  }
  if (!todo.length) return { alerted: [], docIds: [] };
  const iso = new Date(now).toISOString();
  const parts = Math.ceil(todo.length / MEMBERS_PER_DOC);
  const ids = matchPartIds(listing.id, pass, parts);
  const docs: SavedMatchDoc[] = ids.map((_id, part) => {
    const chunk = todo.slice(part * MEMBERS_PER_DOC, (part + 1) * MEMBERS_PER_DOC);
    const event = createEvent(eventRegistry, 'listing.saved-search.matched', {
      listingId: listing.id,
      title: listing.title,
      matches: chunk.map(({ interest, hits }) => {
        // The strongest alert among their matching searches, the first of those named.
        const chosen = hits.reduce((best, s) => (ALERT_RANK[s.alert] > ALERT_RANK[best.alert] ? s : best));
        const place = interest.place;
        return { userId: interest.userId, distanceKm: place && at ? roundKm(chordKm(place, at)) : null, searchId: chosen.id, searchName: chosen.name, alert: chosen.alert };
      }),
      version: 1,
      at: iso,
    });
    return { _id, listingId: listing.id, pass, parts, members: chunk.map((f) => f.interest.userId).join(','), at: new Date(now), ...packedOutboxDocument(event) };
  });
  try {
    // Ordered: the first part is the claim; a duplicate there stops the rest.
    await matched.insertMany(docs, { ordered: true });
  } catch (err) {
    const inserted = (err as { insertedCount?: number; result?: { insertedCount?: number } }).result?.insertedCount ?? (err as { insertedCount?: number }).insertedCount ?? 0;
    if (!isDuplicate(err)) throw err;
    // Another replica claimed it first: its alerts stand. (Parts after the claim are only ever ours.)
    if (inserted === 0) return { alerted: [], docIds: [] };
    return { alerted: todo.slice(0, inserted * MEMBERS_PER_DOC), docIds: ids.slice(0, inserted) };
  }
  return { alerted: todo, docIds: ids };
}

const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000 || ((err as { writeErrors?: { code?: number }[] }).writeErrors ?? []).some((e) => e.code === 11000);

/** The members a pass of this listing alerted (its documents read by `_id`). */
async function membersOf(matched: SavedMatchCollection, listingId: string, pass: MatchPass): Promise<Set<string>> {
  const [claim] = matchPartIds(listingId, pass, 1);
  const first = await matched.findOne({ _id: claim! }, { projection: { members: 1, parts: 1 } });
  if (!first) return new Set();
  const members = new Set(membersIn(first));
  if (first.parts > 1) {
    const rest = matchPartIds(listingId, pass, first.parts).slice(1);
    for await (const doc of matched.find({ _id: { $in: rest } }, { projection: { members: 1 } })) for (const m of membersIn(doc)) members.add(m);
  }
  return members;
}

/** Match documents older than `before` (their outbox long published): no pass of theirs can run again. */
async function forgetOldMatches(matched: SavedMatchCollection, before: number): Promise<void> {
  await matched.deleteMany({ at: { $lt: new Date(before) }, outboxPending: { $ne: true } });
}

/**
 * "x nieuw sinds je laatste bezoek": each alerted search's counter, raised in the background and
 * coalesced per search, so queueing alerts stays one write. A counter raised by a replica that
 * stops hard within the flush interval is lost (a count, never an alert).
 */
export class MatchCounters {
  private pending = new Map<string, Map<string, number>>();
  private flushing: Promise<void> = Promise.resolve();
  private searches: SavedSearchCollection;
  private logger: Logger;

  constructor(searches: SavedSearchCollection, logger: Logger) {
    this.searches = searches;
    this.logger = logger;
  }

  add(alerted: readonly Found[]): void {
    for (const { interest, hits } of alerted) {
      let mine = this.pending.get(interest.userId);
      if (!mine) this.pending.set(interest.userId, (mine = new Map()));
      for (const s of hits) mine.set(s.id, (mine.get(s.id) ?? 0) + 1);
    }
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.pending.size) return;
      const batch = this.pending;
      this.pending = new Map();
      const ops: mongo.AnyBulkWriteOperation<SavedSearchesDoc>[] = [];
      for (const [userId, counts] of batch) {
        for (const [id, n] of counts) {
          // Only while the search still exists: a deleted one must not come back as a counter.
          ops.push({ updateOne: { filter: { _id: userId, [`searches.${id}`]: { $exists: true } }, update: { $inc: { [`searches.${id}.newSinceVisit`]: n } } } });
        }
      }
      await this.searches.bulkWrite(ops, { ordered: false }).catch((err: unknown) => this.logger.warn({ err, searches: ops.length }, 'saved searches: new-match counters not raised'));
    });
    return this.flushing;
  }
}

/**
 * The members whose saved searches `listing` matches, with those searches: never its owner nor
 * anyone either way blocked with them (`hidden`), by the search's own predicate. The listing-only
 * filters go first; a member's place and membership are read only for a search that passed them.
 */
export function findMatches(book: InterestBook, listing: PreparedListing, viewerOf: (userId: string, now: number) => Viewer, hidden: ReadonlySet<string>, now: number): Found[] {
  const found: Found[] = [];
  const ownerId = listing.state.ownerId;
  book.nearSearches(listing.at, listing.state.categoryIds, (interest) => {
    if (interest.userId === ownerId || hidden.has(interest.userId)) return;
    let viewer: Viewer | undefined;
    let at: Vec3 | undefined;
    let hits: BookSearch[] | undefined;
    for (const s of interest.searches) {
      const c = compiledOf(s);
      if (!listingPasses(c, listing)) continue;
      if (!viewer) {
        viewer = viewerOf(interest.userId, now);
        at = viewerAt(viewer);
      }
      if (viewerMay(c, listing, viewer, at, now)) (hits ??= []).push(s);
    }
    if (hits) found.push({ interest, hits });
  }, { hasWords: listing.hasWords });
  return found;
}
