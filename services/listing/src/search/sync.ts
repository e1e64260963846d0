import { EventEnvelopeSchema, eventRegistry, type EventEnvelope } from '@ruilplein/contracts';
import { ensureStream, publishEvent, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { DeliverPolicy, NatsError, type ConsumerMessages } from 'nats';
import type { ListingDoc } from '../listings/model.ts';
import type { MemberDoc } from '../members/model.ts';
import { INTEREST_WINDOW_MS, InterestBook } from './interest.ts';
import { ListingIndex, type ListingState } from './listings.ts';
import { MemberTable } from './members.ts';
import { SearchEngine } from './query.ts';

/** The members projection's durable consumer (members/consumer.ts): what it acknowledged is in the `members` collection. */
export const MEMBERS_DURABLE = 'listing-members';
/** Without that consumer's position, member events are read again from this far back. */
const MEMBER_MARGIN_MS = 10 * 60_000;
/** A removed listing's version is kept this long against late events about it. */
const REMOVED_KEPT_MS = 24 * 3600_000;
const HOUSEKEEPING_MS = 10 * 60_000;
const LOAD_BATCH = 5000;

/** Collections the index is built from: the listing service's own. */
const LISTINGS = 'listings';
const MEMBERS = 'members';

/**
 * Where interest comes from: the stream, the subject, and the listings and member of one event.
 * When the trade service announces offers, add
 * `{ stream: 'trade', subject: 'trade.offer.created', kind: 'offer', read: (p) => ({ listingIds: [p.listingOfferedOnId], memberId: p.senderId, at: p.createdAt }) }`
 * (with the names its event gets); the listing service's NATS user may already read any stream.
 */
const INTEREST_SOURCES = [
  {
    stream: 'listing',
    subject: 'listing.wishlist.added',
    kind: 'wishlist',
    read: (p: { listingId: string; userId: string; at: string }) => ({ listingIds: [p.listingId], memberId: p.userId, at: p.at }),
  },
] as const;

export interface SearchStats {
  listings: number;
  members: number;
  /** Bytes the index holds (columns, hash tables, grid, texts). */
  bytes: number;
  loadMs: number;
}

export interface SearchService extends Worker {
  engine: SearchEngine;
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
  stats(): SearchStats;
}

export interface SearchDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
}

type ListingEventType = 'listing.listing.created' | 'listing.listing.updated' | 'listing.listing.deleted';

/**
 * The search's read model on this replica: built from the `listings` and `members` collections at
 * start, then kept current by ephemeral ordered JetStream consumers of its own (nothing durable,
 * nothing shared with other replicas) that start exactly where the load began, so no change made
 * in between is missed; every change applies only when its version is newer.
 */
export function startSearch(deps: SearchDeps): SearchService {
  const { db, bus, logger } = deps;
  const members = new MemberTable();
  const index = new ListingIndex(members);
  const interest = new InterestBook();
  const engine = new SearchEngine(index, members, interest);
  const feeds: ConsumerMessages[] = [];
  const loops: Promise<void>[] = [];
  let stopped = false;
  let loaded = false;
  let loadMs = 0;

  const applyListing = (type: ListingEventType, payload: unknown) => {
    if (type === 'listing.listing.deleted') {
      const p = eventRegistry[type].parse(payload);
      if (index.remove(p.id, p.version)) interest.forget(index.find(p.id));
      return;
    }
    const p = eventRegistry[type].parse(payload);
    if (index.apply({ ...p, createdAt: p.createdAt }) && !p.active) interest.forget(index.find(p.id));
  };

  const applyMember = (type: string, payload: unknown) => {
    if (type === 'auth.user.deleted') {
      const p = eventRegistry['auth.user.deleted'].parse(payload);
      members.delete(p.id, p.version);
    } else if (type === 'auth.user.registered' || type === 'auth.user.activated' || type === 'auth.user.updated') {
      members.apply(eventRegistry[type].parse(payload));
    }
  };

  /** Reads an ordered consumer until stopped; a malformed event is logged and skipped. */
  const follow = async (stream: string, options: { filterSubjects: string[]; opt_start_seq?: number; opt_start_time?: string }, handle: (type: string, payload: unknown) => void) => {
    const consumer = await bus.js.consumers.get(stream, {
      filterSubjects: options.filterSubjects,
      ...(options.opt_start_time ? { opt_start_time: options.opt_start_time } : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, options.opt_start_seq ?? 1) }),
    });
    const messages = await consumer.consume();
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
        }
      })(),
    );
  };

  const load = async () => {
    const started = performance.now();
    await Promise.all([ensureStream(bus, 'listing'), ensureStream(bus, 'auth')]);
    // Positions first: everything announced up to them is in the collections when the load reads them.
    const listingSeq = (await bus.jsm.streams.info('listing')).state.last_seq;
    const memberFrom = await bus.jsm.consumers.info('auth', MEMBERS_DURABLE).then(
      (info) => ({ opt_start_seq: info.ack_floor.stream_seq + 1 }),
      (err: unknown) => {
        if (!(err instanceof NatsError) || err.api_error?.err_code !== 10014) throw err;
        return { opt_start_time: new Date(Date.now() - MEMBER_MARGIN_MS).toISOString() };
      },
    );

    const memberDocs = db.collection<MemberDoc>(MEMBERS).find({}, { batchSize: LOAD_BATCH, projection: { firstName: 1, lastName: 1, city: 1, latitude: 1, longitude: 1, roles: 1, subscriptionEndsAt: 1, deleted: 1, version: 1 } });
    for await (const m of memberDocs) {
      members.apply({ ...m, id: m._id, roles: m.roles ?? [] });
    }
    const listingDocs = db.collection<ListingDoc>(LISTINGS).find(
      { active: true, deletedAt: { $exists: false } },
      { batchSize: LOAD_BATCH, projection: { outbox: 0, outboxParked: 0, updatedAt: 0 } },
    );
    for await (const doc of listingDocs) {
      if (stopped) return;
      index.apply(fromDoc(doc));
    }

    await follow('auth', { filterSubjects: ['auth.user.>'], ...memberFrom }, applyMember);
    await follow('listing', { filterSubjects: ['listing.listing.>'], opt_start_seq: listingSeq + 1 }, (type, payload) => {
      if (type === 'listing.listing.created' || type === 'listing.listing.updated' || type === 'listing.listing.deleted') applyListing(type, payload);
    });
    const since = new Date(Date.now() - INTEREST_WINDOW_MS).toISOString();
    for (const source of INTEREST_SOURCES) {
      await follow(source.stream, { filterSubjects: [source.subject], opt_start_time: since }, (type, payload) => {
        if (type !== source.subject) return;
        const { listingIds, memberId, at } = source.read(eventRegistry[source.subject].parse(payload));
        for (const id of listingIds) {
          const slot = index.find(id);
          if (slot >= 0 && index.has(id)) interest.record(slot, memberId, source.kind, new Date(at).getTime());
        }
      });
    }
    loadMs = performance.now() - started;
    loaded = true;
    logger.info({ ...stats(), ms: Math.round(loadMs) }, 'search index loaded');
  };

  const stats = (): SearchStats => ({ listings: index.live, members: members.size, bytes: index.bytes() + members.bytes(), loadMs });

  const ready = load();
  ready.catch((err: unknown) => logger.error({ err }, 'search index not loaded'));
  const housekeeping = setInterval(() => {
    const now = Date.now();
    index.sweep(now - REMOVED_KEPT_MS);
    interest.prune(now);
  }, HOUSEKEEPING_MS).unref();

  return {
    engine,
    ready,
    isReady: () => loaded,
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
    stats,
    async stop() {
      stopped = true;
      clearInterval(housekeeping);
      await ready.catch(() => undefined);
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
