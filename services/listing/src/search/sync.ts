import { randomUUID } from 'node:crypto';
import { EventEnvelopeSchema, eventRegistry, type EventEnvelope } from '@ruilplein/contracts';
import { INTEREST_WINDOW_MS, InterestBook, ListingIndex, MemberTable, SearchEngine, type ListingState } from '@ruilplein/search';
import { BlockTable, ensureStream, followStream, nowMs, publishEvent, wallClockMs, type BlockDoc, type Bus, type Connection, type Logger, type StreamFeed, type Worker } from '@ruilplein/service-kit';
import { NatsError } from 'nats';
import type { ListingDoc } from '../listings/model.ts';
import type { MemberDoc } from '../members/model.ts';
import { latestSnapshot, readSnapshot, releaseLease, takeLease, writeSnapshot, type SnapshotHead, type StreamPositions } from './snapshot.ts';

/** The members projection's durable consumer (members/consumer.ts): what it acknowledged is in the `members` collection. */
export const MEMBERS_DURABLE = 'listing-members';
/** A removed listing's version is kept this long against late events about it. */
const REMOVED_KEPT_MS = 24 * 3600_000;
const HOUSEKEEPING_MS = 10 * 60_000;
const LOAD_BATCH = 5000;
const LEASE_MS = 30 * 60_000;

/** Collections the index is built from: the listing service's own. */
const LISTINGS = 'listings';
const MEMBERS = 'members';
/** The members projection's block relation (the kit's blockProjection, fed on the members durable). */
const BLOCKS = 'blocks';

/**
 * Where interest comes from: the stream, the subject, and the listings and member of one event:
 * a wishlist entry, and a trade offer made on a listing (the trade service's `trade.offer.created`).
 * Interest is read again from 14 days back at every start (recording is idempotent), so snapshots
 * need not hold it.
 */
const INTEREST_SOURCES = [
  {
    stream: 'listing',
    subject: 'listing.wishlist.added',
    kind: 'wishlist',
    read: (payload: unknown) => {
      const p = eventRegistry['listing.wishlist.added'].parse(payload);
      return { listingIds: [p.listingId], memberId: p.userId, at: p.at };
    },
  },
  {
    stream: 'trade',
    subject: 'trade.offer.created',
    kind: 'offer',
    read: (payload: unknown) => {
      const p = eventRegistry['trade.offer.created'].parse(payload);
      return { listingIds: [p.listingId], memberId: p.senderId, at: p.createdAt };
    },
  },
] as const;

export interface SnapshotOptions {
  /** A new snapshot once the newest is older than this. Default 6 hours. */
  everyMs?: number;
  /** No snapshots for an index smaller than this (a full load is quick enough). Default 20,000. */
  minListings?: number;
  /** How often a replica looks whether a snapshot is due. Default 10 minutes. */
  checkMs?: number;
}

export interface SearchStats {
  listings: number;
  members: number;
  /** Bytes the index holds (columns, hash tables, grid, texts, the keyword index). */
  bytes: number;
  /** Of which the keyword index (issue 23): terms, posting lists, per-row entries. */
  textBytes: number;
  loadMs: number;
  /** Where the index came from at start. */
  source: 'store' | 'snapshot';
}

export interface SearchService extends Worker {
  readonly engine: SearchEngine;
  /** Everyone the member blocked or is blocked by: their listings are left out of what the member finds. */
  hiddenFor(userId: string): ReadonlySet<string>;
  /** Resolves once the index is loaded and follows the events. */
  ready: Promise<void>;
  isReady(): boolean;
  /**
   * A listing event of this replica's own write (the envelope its outbox holds): applied to this
   * replica's index at once and published right away with its id as message id, so the other
   * replicas see it without waiting for the outbox relay (whose later publish JetStream drops as a
   * duplicate). Never fails the write: the relay stays the guarantee.
   */
  announce(event: EventEnvelope): void;
  /** Writes a snapshot now (when this replica gets the lease); answers its size, or undefined. */
  snapshot(): Promise<{ id: string; bytes: number; storedBytes: number; ms: number } | undefined>;
  stats(): SearchStats;
}

export interface SearchDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  /** false: neither read nor write snapshots. */
  snapshots?: SnapshotOptions | false;
}

type ListingEventType = 'listing.listing.created' | 'listing.listing.updated' | 'listing.listing.deleted';

/**
 * The search's read model on this replica: restored from the newest snapshot, or else built from
 * the `listings` and `members` collections, then kept current by ephemeral ordered JetStream
 * consumers of its own (nothing durable, nothing shared with other replicas) that start exactly
 * after the stream positions the tables reflect, so no change is missed; every change applies only
 * when its version is newer.
 */
export function startSearch(deps: SearchDeps): SearchService {
  const { db, bus, logger } = deps;
  const snapshots = deps.snapshots === false ? undefined : { everyMs: 6 * 3600_000, minListings: 20_000, checkMs: 10 * 60_000, ...deps.snapshots };
  let members = new MemberTable();
  let index = new ListingIndex(members);
  const interest = new InterestBook();
  let engine = new SearchEngine(index, members, interest);
  let blocks = new BlockTable();
  /** What the tables reflect: the last sequence applied from each stream. */
  const positions: StreamPositions = { listingSeq: 0, authSeq: 0 };
  const feeds: StreamFeed[] = [];
  const loops: Promise<void>[] = [];
  const owner = randomUUID();
  let stopped = false;
  /** Ends a wait between load attempts (on stop). */
  let wake = () => {};
  let loaded = false;
  let loadMs = 0;
  let origin: SearchStats['source'] = 'store';

  const applyListing = (type: ListingEventType, payload: unknown) => {
    if (type === 'listing.listing.deleted') {
      const p = eventRegistry[type].parse(payload);
      if (index.remove(p.id, p.version, nowMs())) interest.forget(index.find(p.id));
      return;
    }
    const p = eventRegistry[type].parse(payload);
    if (index.apply(p, nowMs()) && !p.active) interest.forget(index.find(p.id));
  };

  const applyMember = (type: string, payload: unknown) => {
    if (type === 'auth.user.deleted') {
      const p = eventRegistry['auth.user.deleted'].parse(payload);
      members.delete(p.id, p.version);
    } else if (type === 'auth.user.registered' || type === 'auth.user.activated' || type === 'auth.user.updated') {
      members.apply(eventRegistry[type].parse(payload));
    }
  };

  const applyBlock = (type: string, payload: unknown) => {
    if (type === 'auth.user.deleted') blocks.forget(eventRegistry[type].parse(payload).id);
    else if (type === 'auth.block.added' || type === 'auth.block.removed') blocks.apply(eventRegistry[type].parse(payload), type === 'auth.block.added');
  };

  /** Reads an ordered consumer until stopped; a malformed event is logged and skipped. */
  const follow = async (
    stream: string,
    options: { filterSubjects: string[]; opt_start_seq?: number; opt_start_time?: string },
    handle: (type: string, payload: unknown) => void,
    applied?: (seq: number) => void,
  ) => {
    const messages = await followStream(bus, stream, { filterSubjects: options.filterSubjects, startSeq: options.opt_start_seq, startTime: options.opt_start_time });
    feeds.push(messages);
    loops.push(
      (async () => {
        for await (const msg of messages) {
          try {
            const envelope = EventEnvelopeSchema.parse(msg.json());
            handle(envelope.type, envelope.payload);
          } catch (err) {
            logger.warn({ err, subject: msg.subject, seq: msg.seq }, 'search: event not applied');
          }
          applied?.(msg.seq);
        }
      })(),
    );
  };

  /** The newest snapshot, when the streams still hold every event after it. */
  const usableSnapshot = async (): Promise<SnapshotHead | undefined> => {
    const head = await latestSnapshot(db).catch((err: unknown) => logger.warn({ err }, 'search: snapshots not readable'));
    if (!head) return undefined;
    for (const [stream, seq] of [['listing', head.listingSeq], ['auth', head.authSeq]] as const) {
      const { first_seq, last_seq } = (await bus.jsm.streams.info(stream)).state;
      if (first_seq > seq + 1 || last_seq < seq) {
        logger.info({ snapshot: head._id, stream, seq, first_seq, last_seq }, 'search: snapshot too old for the stream; loading from the store');
        return undefined;
      }
    }
    return head;
  };

  /** What the members projection acknowledged is in its collections; without it, from the start of the stream. */
  const membersAcked = () =>
    bus.jsm.consumers.info('auth', MEMBERS_DURABLE).then(
      (info) => info.ack_floor.stream_seq,
      (err: unknown) => {
        if (!(err instanceof NatsError) || err.api_error?.err_code !== 10014) throw err;
        return 0;
      },
    );

  /**
   * Who blocked whom, from the projection in the store, whether the tables came from a snapshot or
   * not (snapshots do not hold it): answers the auth position it reflects. Events after it that the
   * store already holds apply again without effect (newest per pair).
   */
  const loadBlocks = async (): Promise<number> => {
    const seq = await membersAcked();
    for await (const doc of db.collection<BlockDoc>(BLOCKS).find({}, { batchSize: LOAD_BATCH })) blocks.load(doc);
    return seq;
  };

  /** Every member and active listing from the store; answers the positions they reflect. */
  const loadFromStore = async (): Promise<StreamPositions | undefined> => {
    // Positions first: everything announced up to them is in the collections when the load reads them.
    const listingSeq = (await bus.jsm.streams.info('listing')).state.last_seq;
    const authSeq = await membersAcked();
    const memberDocs = db.collection<MemberDoc>(MEMBERS).find({}, { batchSize: LOAD_BATCH, projection: { firstName: 1, lastName: 1, city: 1, latitude: 1, longitude: 1, roles: 1, subscriptionEndsAt: 1, deleted: 1, version: 1 } });
    for await (const m of memberDocs) {
      members.apply({ ...m, id: m._id, roles: m.roles ?? [] });
    }
    const listingDocs = db.collection<ListingDoc>(LISTINGS).find(
      { active: true, deletedAt: { $exists: false } },
      { batchSize: LOAD_BATCH, projection: { outbox: 0, outboxParked: 0, updatedAt: 0 } },
    );
    for await (const doc of listingDocs) {
      if (stopped) return undefined;
      index.apply(fromDoc(doc), nowMs());
    }
    return { listingSeq, authSeq };
  };

  const fresh = () => {
    blocks = new BlockTable();
    members = new MemberTable();
    index = new ListingIndex(members);
    engine = new SearchEngine(index, members, interest);
  };

  const load = async () => {
    const started = performance.now();
    // The interest sources' streams too: a consumer of a stream nobody created yet fails.
    await Promise.all([ensureStream(bus, 'listing'), ensureStream(bus, 'auth'), ...INTEREST_SOURCES.map((source) => ensureStream(bus, source.stream))]);
    const head = snapshots ? await usableSnapshot() : undefined;
    let from: StreamPositions | undefined;
    if (head) {
      try {
        const image = await readSnapshot(db, head);
        members = MemberTable.restore(image.members);
        index = ListingIndex.restore(image.listings, members);
        engine = new SearchEngine(index, members, interest);
        from = { listingSeq: head.listingSeq, authSeq: head.authSeq };
        origin = 'snapshot';
      } catch (err) {
        logger.warn({ err, snapshot: head._id }, 'search: snapshot not restored; loading from the store');
        fresh();
      }
    }
    from ??= await loadFromStore();
    if (!from || stopped) return;
    Object.assign(positions, from);
    const blockSeq = await loadBlocks();
    await follow('auth', { filterSubjects: ['auth.block.>', 'auth.user.deleted'], opt_start_seq: blockSeq + 1 }, applyBlock);

    await follow('auth', { filterSubjects: ['auth.user.>'], opt_start_seq: from.authSeq + 1 }, applyMember, (seq) => (positions.authSeq = seq));
    await follow(
      'listing',
      { filterSubjects: ['listing.listing.>'], opt_start_seq: from.listingSeq + 1 },
      (type, payload) => {
        if (type === 'listing.listing.created' || type === 'listing.listing.updated' || type === 'listing.listing.deleted') applyListing(type, payload);
      },
      (seq) => (positions.listingSeq = seq),
    );
    // A stream position (real time): the platform's clock, moved forward, would start past the
    // messages. Signs still count by platform time.
    const since = new Date(wallClockMs() - INTEREST_WINDOW_MS).toISOString();
    for (const source of INTEREST_SOURCES) {
      await follow(source.stream, { filterSubjects: [source.subject], opt_start_time: since }, (type, payload) => {
        if (type !== source.subject) return;
        const { listingIds, memberId, at } = source.read(payload);
        for (const id of listingIds) {
          const slot = index.find(id);
          if (slot >= 0 && index.has(id)) interest.record(slot, memberId, source.kind, new Date(at).getTime(), nowMs());
        }
      });
    }
    loadMs = performance.now() - started;
    loaded = true;
    logger.info({ ...stats(), ms: Math.round(loadMs) }, 'search index loaded');
  };

  /** Loads until it succeeds (the store or NATS may not answer yet, or another start creates a stream at the same moment). */
  const loadUntilDone = async () => {
    for (let attempt = 1; !stopped; attempt++) {
      try {
        return await load();
      } catch (err) {
        logger.warn({ err, attempt }, 'search index not loaded; trying again');
        for (const feed of feeds.splice(0)) await feed.close().catch(() => undefined);
        await Promise.all(loops.splice(0));
        fresh();
        origin = 'store';
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  };

  const stats = (): SearchStats => ({ listings: index.live, members: members.size, bytes: index.bytes() + members.bytes(), textBytes: index.keywords.bytes(), loadMs, source: origin });

  const snapshot = async () => {
    if (!loaded || !(await takeLease(db, owner, LEASE_MS))) return undefined;
    try {
      const started = performance.now();
      // Tables and positions at one instant (nothing runs in between): the state after exactly those events.
      const image = { listings: index.image(), members: members.image() };
      const written = await writeSnapshot(db, image, { ...positions });
      const ms = Math.round(performance.now() - started);
      logger.info({ ...written, ms, listings: index.live }, 'search: snapshot written');
      return { ...written, ms };
    } finally {
      await releaseLease(db, owner).catch(() => undefined);
    }
  };

  /** A snapshot when the newest is old (or there is none) and the index is large enough to be worth one. */
  let snapshotting: Promise<unknown> | undefined;
  const snapshotIfDue = () => {
    if (!snapshots || snapshotting || !loaded || index.live < snapshots.minListings) return;
    snapshotting = (async () => {
      const head = await latestSnapshot(db);
      if (head && nowMs() - +head.createdAt < snapshots.everyMs) return;
      await snapshot();
    })()
      .catch((err: unknown) => logger.warn({ err }, 'search: snapshot not written'))
      .finally(() => (snapshotting = undefined));
  };

  const ready = loadUntilDone();
  void ready.then(snapshotIfDue);
  const housekeeping = setInterval(() => {
    const now = nowMs();
    index.sweep(now - REMOVED_KEPT_MS);
    interest.prune(now);
  }, HOUSEKEEPING_MS).unref();
  const snapshotTimer = snapshots ? setInterval(snapshotIfDue, snapshots.checkMs).unref() : undefined;

  return {
    get engine() {
      return engine;
    },
    ready,
    isReady: () => loaded,
    hiddenFor: (userId) => blocks.hiddenFor(userId),
    announce(event) {
      if (event.type === 'listing.listing.created' || event.type === 'listing.listing.updated' || event.type === 'listing.listing.deleted') {
        try {
          applyListing(event.type, event.payload);
        } catch (err) {
          logger.warn({ err, eventId: event.id }, 'search: own event not applied');
        }
      }
      publishEvent(bus, event).catch((err: unknown) => logger.debug({ err, eventId: event.id }, 'search: early publish failed; the outbox relay publishes it'));
    },
    snapshot,
    stats,
    async stop() {
      stopped = true;
      wake();
      clearInterval(housekeeping);
      clearInterval(snapshotTimer);
      await ready.catch(() => undefined);
      await snapshotting;
      for (const feed of feeds) await feed.close();
      await Promise.all(loops);
    },
  };
}

/** A stored listing as the index takes it. */
export function fromDoc(doc: ListingDoc): ListingState {
  const cover = doc.photos?.[0];
  return {
    id: doc._id,
    version: doc.version,
    ownerId: doc.ownerId,
    active: doc.active && !doc.deletedAt,
    title: doc.title,
    excerpt: (doc.description ?? '').slice(0, 200),
    listingType: doc.listingType,
    acceptsItems: doc.acceptsItems,
    isPremium: doc.isPremium,
    initialValue: doc.initialValue ?? null,
    categoryIds: doc.categoryIds ?? [],
    imageUrl: cover?.imageUrl ?? '',
    thumbnailUrl: cover?.thumbnailUrl ?? '',
    placeholder: doc.placeholder ?? '',
    createdAt: doc.createdAt,
    latitude: doc.latitude,
    longitude: doc.longitude,
  };
}
