import { EventEnvelopeSchema, eventRegistry, PREMIUM_HEAD_START_HOURS, type SavedSearchAlert, type SavedSearchesChangedEvent } from '@ruilplein/contracts';
import { matches, roundKm, toVec, type ListingState, type MatchFilters, type Vec3, type Viewer } from '@ruilplein/search';
import { createEvent, followStream, nowMs, outboxFields, wallClockMs, type Bus, type Connection, type Logger, type OutboxRelay, type StreamFeed, type Worker } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import { LIVE, listingCollection, listingsByIds } from '../listings/model.ts';
import { fromDoc, type SearchService } from '../search/sync.ts';
import { wishlistCollection } from '../wishlist/model.ts';
import { chordKm, degreesOf, InterestBook, type BookSearch, type Interest } from './book.ts';
import { inOrder, matchId, savedMatchCollection, savedSearchCollection, type SavedMatchCollection, type SavedMatchDoc, type SavedSearchCollection, type SavedSearchesDoc } from './model.ts';

/** The six-hour head start (search's rule): standard members are matched when it ends. */
const HEAD_START_MS = PREMIUM_HEAD_START_HOURS * 3600_000;
/** A created listing older than this when its event arrives (a restart reading back) is not matched at once, only queued for its head start. */
const FRESH_MS = 10 * 60_000;
/** How far back a start reads created listings, so head starts that end after a restart still alert. */
const REPLAY_MS = HEAD_START_MS + 15 * 60_000;
const LOAD_BATCH = 5000;
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
  /** How often members who moved are filed again, and wishlists read again (removals are not announced). Default 60 s and 30 min. */
  refileMs?: number;
  wishlistReloadMs?: number;
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
  /** Matches one listing against the saved searches near it and queues the alerts; answers how many members were alerted. */
  matchListing(listing: ListingState): Promise<number>;
  /** One head-start pass now: listings whose head start has ended are matched again (standard members see them now). */
  headStartPass(): Promise<number>;
}

export const bookSearchesOf = (searches: SavedSearchesChangedEvent['searches']): BookSearch[] =>
  searches.map((s) => ({ id: s.id, name: s.name, alert: s.alert, createdAt: Date.parse(s.createdAt), filters: s.filters }));

/** The filters as `matches` takes them. */
export const matchFiltersOf = (s: BookSearch): MatchFilters => ({
  distanceKm: s.filters.distanceKm,
  minValue: s.filters.minValue,
  maxValue: s.filters.maxValue,
  listingType: s.filters.listingType,
  premium: s.filters.premium ?? false,
  categoryIds: s.filters.categoryIds ?? [],
  ...(s.filters.q ? { q: s.filters.q } : {}),
});

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
  const book = new InterestBook(placeOf);
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

  const matchListing = async (listing: ListingState): Promise<number> => {
    if (!listing.active) return 0;
    const now = nowMs();
    const placed = typeof listing.latitude === 'number' && typeof listing.longitude === 'number';
    const at = placed ? toVec(listing.latitude!, listing.longitude!) : undefined;
    const found = findMatches(book, listing, at, viewerOf, search.hiddenFor(listing.ownerId), now, deps.categories?.());
    if (!found.length) return 0;
    const won = await queueAlerts({ matched, searches, logger }, listing, found, at, now);
    for (const i of won) deps.relay.kick(matched.collectionName, matchId(listing.id, found[i]!.interest.userId));
    return won.length;
  };

  const headStartPass = async () => {
    const now = nowMs();
    let alerted = 0;
    while (waiting.length && waiting[0]!.due <= now && !stopped) {
      let n = 0;
      while (n < waiting.length && n < 200 && waiting[n]!.due <= now) n++;
      const batch = waiting.splice(0, n);
      const docs = await listingsByIds(listings, batch.map((w) => w.id), LIVE);
      for (const doc of docs) if (doc.active) alerted += await matchListing(fromDoc(doc));
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
    for await (const w of wishlist.find({}, { batchSize: LOAD_BATCH, projection: { userId: 1, listingId: 1 } })) {
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
    await follow({ filterSubjects: ['listing.saved-search.changed', 'listing.wishlist.added'], startSeq: seq + 1 }, (type, payload) => {
      if (type === 'listing.saved-search.changed') applyChanged(eventRegistry[type].parse(payload));
      else if (type === 'listing.wishlist.added') {
        const p = eventRegistry[type].parse(payload);
        book.addWish(p.userId, p.listingId);
      }
    });
    // A stream position (real time), as search's interest: the platform's clock may be moved.
    await follow({ filterSubjects: ['listing.listing.created'], startTime: new Date(wallClockMs() - REPLAY_MS).toISOString() }, (type, payload) =>
      type === 'listing.listing.created' ? onCreated(eventRegistry[type].parse(payload)) : undefined,
    );
    timers.push(setInterval(() => void headStartPass().catch((err: unknown) => logger.warn({ err }, 'saved searches: head-start pass failed')), deps.headStartCheckMs ?? 30_000).unref());
    timers.push(setInterval(() => book.refile(), deps.refileMs ?? 60_000).unref());
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
    },
  };
}

/**
 * Queues one alert per member found: the match document keyed by listing and member, inserted only
 * when absent, with `listing.saved-search.matched` in its outbox; then each matching search's
 * new-since-visit count. Answers the indexes (into `found`) this call inserted.
 */
export async function queueAlerts(
  stores: { matched: SavedMatchCollection; searches: SavedSearchCollection; logger: Logger },
  listing: ListingState,
  found: { interest: Interest; hits: BookSearch[] }[],
  at: Vec3 | undefined,
  now: number,
): Promise<number[]> {
  const { matched, searches, logger } = stores;
  const iso = new Date(now).toISOString();
  const ops: mongo.AnyBulkWriteOperation<SavedMatchDoc>[] = found.map(({ interest, hits }) => {
    // One alert per listing and member: the strongest alert among their matching searches, the first of those named.
    const chosen = hits.reduce((best, s) => (ALERT_RANK[s.alert] > ALERT_RANK[best.alert] ? s : best));
    const place = interest.place;
    const event = createEvent(eventRegistry, 'listing.saved-search.matched', {
      userId: interest.userId,
      listingId: listing.id,
      title: listing.title,
      distanceKm: place && at ? roundKm(chordKm(place, at)) : null,
      searchId: chosen.id,
      searchName: chosen.name,
      alert: chosen.alert,
      version: 1,
      at: iso,
    });
    const _id = matchId(listing.id, interest.userId);
    return {
      updateOne: {
        filter: { _id },
        update: { $setOnInsert: { userId: interest.userId, listingId: listing.id, searchIds: hits.map((s) => s.id), at: new Date(now), ...outboxFields(event) } },
        upsert: true,
      },
    };
  });
  const won = await upsertAll(matched, ops);
  if (!won.length) return [];
  const counts: mongo.AnyBulkWriteOperation<SavedSearchesDoc>[] = [];
  for (const i of won) {
    const { interest, hits } = found[i]!;
    for (const s of hits) {
      // Only while the search still exists: a deleted one must not come back as a counter.
      counts.push({ updateOne: { filter: { _id: interest.userId, [`searches.${s.id}`]: { $exists: true } }, update: { $inc: { [`searches.${s.id}.newSinceVisit`]: 1 } } } });
    }
  }
  if (counts.length) await searches.bulkWrite(counts, { ordered: false }).catch((err: unknown) => logger.warn({ err, listingId: listing.id }, 'saved searches: new-match counters not raised'));
  return won;
}

/**
 * The members whose saved searches `listing` (at `at`) matches, with those searches: never its owner
 * nor anyone either way blocked with them (`hidden`), by the search's own predicate.
 */
export function findMatches(
  book: InterestBook,
  listing: ListingState,
  at: Vec3 | undefined,
  viewerOf: (userId: string, now: number) => Viewer,
  hidden: ReadonlySet<string>,
  now: number,
  categories?: ReadonlyMap<string, { name: string }>,
) {
  const found: { interest: Interest; hits: BookSearch[] }[] = [];
  book.near(at, (interest) => {
    if (!interest.searches.length || interest.userId === listing.ownerId || hidden.has(interest.userId)) return;
    const viewer = viewerOf(interest.userId, now);
    const hits = interest.searches.filter((s) => matches(matchFiltersOf(s), listing, viewer, now, categories));
    if (hits.length) found.push({ interest, hits });
  });
  return found;
}

/** Upserts that insert only when absent; answers the indexes of the operations that inserted (this replica's matches). */
async function upsertAll(collection: mongo.Collection<SavedMatchDoc>, ops: mongo.AnyBulkWriteOperation<SavedMatchDoc>[]): Promise<number[]> {
  // The driver refuses an empty batch: a listing nobody's search matches writes nothing.
  if (!ops.length) return [];
  try {
    const result = await collection.bulkWrite(ops, { ordered: false });
    // By the inserted ids, not the answer's indexes: FerretDB 1.24 numbers the upserts 0, 1, … among
    // themselves when some operations matched an existing document (MongoDB gives each its operation's index).
    const inserted = new Set(Object.values(result.upsertedIds).map(String));
    return ops.flatMap((op, i) => ('updateOne' in op && inserted.has(String((op.updateOne.filter as { _id: string })._id)) ? [i] : []));
  } catch (err) {
    // Two replicas inserting one match at the same moment: one of them gets the duplicate key. Sort it out one by one.
    if ((err as { code?: number }).code !== 11000 && !(err as { writeErrors?: unknown }).writeErrors) throw err;
    const won: number[] = [];
    for (const [i, op] of ops.entries()) {
      if (!('updateOne' in op)) continue;
      try {
        const r = await collection.updateOne(op.updateOne.filter, op.updateOne.update as mongo.UpdateFilter<SavedMatchDoc>, { upsert: true });
        if (r.upsertedCount === 1) won.push(i);
      } catch (e) {
        if ((e as { code?: number }).code !== 11000) throw e;
      }
    }
    return won;
  }
}
