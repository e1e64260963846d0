import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import type { EventEnvelope } from '@ruilplein/contracts';
import type { mongo } from 'mongoose';
import { ErrorCode, NatsError } from 'nats';
import { now, nowMs } from './clock.ts';
import { addGaugeProducer } from './metrics.ts';
import { collection, type Connection } from './mongo.ts';
import type { Logger } from './logger.ts';
import { currentTraceHeaders, publishEvent, type Bus, type Worker } from './nats.ts';
import { startPeriodic } from './periodic.ts';
import { relayPasses, type DocId } from './relay-passes.ts';

const tracer = trace.getTracer('@ruilplein/service-kit');

/**
 * Pending events live inside the document they belong to, keyed by event id, and are written in
 * the same single-document update as the state change (no transactions on FerretDB; see
 * docs/architecture.md). A top-level marker `outboxPending: true` is set with them, so the relay
 * finds pending documents with one equality (pushed down on FerretDB, indexed on MongoDB).
 */
export type OutboxEntry = {
  trace: Record<string, string>;
  /** Failed publishes so far (set by the relay). */
  attempts?: number;
  lastError?: string;
  /** Not tried again before this time. */
  retryAt?: Date;
} & (
  | { event: EventEnvelope; packed?: undefined }
  /** The event as its JSON text (packedOutboxDocument): one value for the store instead of thousands. */
  | { packed: string; event?: undefined }
);

/** An entry the relay gave up on: out of `outbox`, kept here with why. */
export type ParkedOutboxEntry = OutboxEntry & {
  reason: string;
  parkedAt: Date;
};

/** The event an entry holds, packed or not. */
export const entryEvent = (entry: OutboxEntry): EventEnvelope => entry.event ?? (JSON.parse(entry.packed) as EventEnvelope);

/** `$set` (or `$setOnInsert`) fields that queue events in the document's outbox, marker included. */
export function outboxFields(...events: EventEnvelope[]): Record<string, OutboxEntry | true> {
  const trace = currentTraceHeaders();
  return { ...Object.fromEntries(events.map((event) => [`outbox.${event.id}`, { event, trace }])), outboxPending: true };
}

/** The same for a document inserted whole: an insert takes no dotted paths. */
export function outboxDocument(...events: EventEnvelope[]): { outbox: Record<string, OutboxEntry>; outboxPending: true } {
  const trace = currentTraceHeaders();
  return { outbox: Object.fromEntries(events.map((event) => [event.id, { event, trace }])), outboxPending: true };
}

/**
 * As outboxDocument, each event kept as its JSON text. For events with large payloads (hundreds of
 * members): FerretDB stores every value of a document with its type, so one string inserts several
 * times faster than the same event as an object (4 against 12 ms for 450 members).
 */
export function packedOutboxDocument(...events: EventEnvelope[]): { outbox: Record<string, OutboxEntry>; outboxPending: true } {
  const trace = currentTraceHeaders();
  return { outbox: Object.fromEntries(events.map((event) => [event.id, { packed: JSON.stringify(event), trace }])), outboxPending: true };
}

/** Documents with events to publish. */
export const PENDING = { outboxPending: true } as const;
/** Documents with parked events. */
export const PARKED = { outboxParkedAt: { $exists: true } } as const;

export type { DocId };
export interface OutboxDoc {
  _id: DocId;
  outbox?: Record<string, OutboxEntry>;
  outboxParked?: Record<string, ParkedOutboxEntry>;
}
type OutboxCollection = mongo.Collection<OutboxDoc>;

/**
 * The relay's indexes (MongoDB uses them; FerretDB ignores them), and the marker on documents
 * queued before it existed.
 */
export async function ensureOutboxIndexes(collection: mongo.Collection<mongo.BSON.Document>): Promise<void> {
  await collection.createIndex({ outboxPending: 1, _id: 1 });
  await collection.createIndex({ outboxParkedAt: 1 });
}

/** Marks documents queued before the marker existed; answers how many. */
export async function markUnmarkedOutboxes(collection: mongo.Collection<mongo.BSON.Document>, stopped: () => boolean = () => false): Promise<number> {
  let marked = 0;
  // Found by a read, marked one by one by _id: one updateMany would hold the local store's write
  // turn for a whole scan of the collection.
  const unmarked = collection.find({ outbox: { $exists: true, $ne: {} }, outboxPending: { $exists: false } }, { projection: { _id: 1 } });
  for await (const { _id } of unmarked) {
    if (stopped()) break;
    marked += (await collection.updateOne({ _id, outbox: { $exists: true, $ne: {} } }, { $set: { outboxPending: true } })).modifiedCount;
  }
  return marked;
}

/** Parked entries of a collection, oldest first. */
export async function parkedOutboxEntries(collection: mongo.Collection<mongo.BSON.Document>): Promise<{ docId: DocId; id: string; entry: ParkedOutboxEntry }[]> {
  const docs = (await collection.find(PARKED, { projection: { outboxParked: 1 } }).toArray()) as OutboxDoc[];
  return docs
    .flatMap((doc) => Object.entries(doc.outboxParked ?? {}).map(([id, entry]) => ({ docId: doc._id, id, entry })))
    .sort((a, b) => +new Date(a.entry.parkedAt) - +new Date(b.entry.parkedAt));
}

/**
 * Puts one parked entry back in its document's outbox with its attempts reset (an operator's
 * replay, after the cause is fixed): one conditional update by `_id`, marker included, so the
 * relay's next pass publishes it. False when it is not parked (any more).
 */
export async function replayParkedOutboxEntry(collection: mongo.Collection<OutboxDoc>, docId: DocId, id: string): Promise<boolean> {
  const path = `outboxParked.${id}`;
  const doc = await collection.findOne({ _id: docId, [path]: { $exists: true } }, { projection: { [path]: 1 } });
  const parked = doc?.outboxParked?.[id];
  if (!parked) return false;
  const entry: OutboxEntry = { event: entryEvent(parked), trace: parked.trace ?? {} };
  const moved = await collection.updateOne(
    { _id: docId, [path]: { $exists: true } },
    { $set: { [`outbox.${id}`]: entry, outboxPending: true }, $unset: { [path]: '' } },
  );
  if (moved.modifiedCount !== 1) return false;
  // Nothing parked left: the document leaves the parked ones (conditional, as parking may go on).
  await collection.updateOne({ _id: docId, outboxParked: {} }, { $unset: { outboxParked: '', outboxParkedAt: '' } });
  return true;
}

export interface OutboxRelay extends Worker {
  /**
   * Publish soon: call after a write that queued events. With the collection and the document's
   * id only that document is read (an `_id` lookup, cheap on FerretDB); without, a full pass.
   */
  kick(collection?: string, id?: DocId): void;
  /** One full pass; resolves when everything pending at its start was tried. */
  flush(): Promise<void>;
}

export interface OutboxRelayOptions {
  bus: Bus;
  db: Connection;
  /** Names of the collections whose documents carry an outbox. */
  collections: string[];
  logger: Logger;
  /**
   * Full passes that find what no kick announced (a writer died before publishing). Default 10 s;
   * never more often than ten times the last pass took, so a store that scans for them (FerretDB)
   * spends at most a tenth of its time on it.
   */
  intervalMs?: number;
  /** A full pass this soon again while entries wait for a retry or JetStream is away. Default 1 s. */
  retryIntervalMs?: number;
  /** Failed publishes of one entry before it is parked. Default 5. */
  maxAttempts?: number;
  /** Wait before trying an entry again, by failed attempts so far. Default 1 s doubling, at most 1 min. */
  retryDelayMs?: (attempts: number) => number;
}

const defaultRetryDelay = (attempts: number) => Math.min(60_000, 1000 * 2 ** (attempts - 1));

function reasonOf(err: unknown, subject: string): string {
  if (err instanceof NatsError && err.code === ErrorCode.NoResponders) return `no stream takes ${subject} (no responders)`;
  return (err as Error)?.message?.replace(/\s+/g, ' ').slice(0, 500) || String(err);
}

/**
 * Publishes pending events with their id as JetStream message id and clears each one only after
 * JetStream acknowledged it. A crash anywhere leaves the event pending; the next pass re-publishes
 * and JetStream's duplicate window drops the copy. An entry that fails while JetStream itself
 * answers is tried again later and parked (`outboxParked.<id>`) after `maxAttempts`, so it never
 * holds back the others; when JetStream does not answer, nothing is counted.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { bus, db, logger } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  // Two typed views of each collection: any document (indexes, markers), and its outbox fields.
  const plain = options.collections.map((name) => collection(db, name));
  const collections = options.collections.map((name) => collection<OutboxDoc>(db, name));
  let stopped = false;
  const ready = Promise.all(plain.map((c) => ensureOutboxIndexes(c))).catch((err: unknown) => logger.warn({ err }, 'outbox indexes not created'));
  // In the background (a flush waits for it): on a store that scans, this takes as long as reading
  // every document.
  const marking = ready
    .then(() => Promise.all(plain.map((c) => markUnmarkedOutboxes(c, () => stopped))))
    .then((marked) => {
      if (marked.some((n) => n > 0) && !stopped) void full();
    })
    .catch((err: unknown) => logger.warn({ err }, 'outbox entries from before the pending marker not marked'));

  const busAnswers = () =>
    bus.jsm.getAccountInfo().then(
      () => true,
      () => false,
    );

  /** Publishes one entry; false when it stays pending. Throws when the bus, not the entry, failed. */
  const publishEntry = async (collection: OutboxCollection, docId: DocId, id: string, entry: OutboxEntry): Promise<boolean> => {
    if (entry.retryAt && new Date(entry.retryAt).getTime() > nowMs()) return false;
    const event = entryEvent(entry);
    // The relay's span continues the trace of the request that wrote the entry (its stored trace
    // context); the publish span is its child, the consumers' spans the publish's.
    const parent = propagation.extract(ROOT_CONTEXT, entry.trace ?? {});
    const span = tracer.startSpan(`outbox relay ${event.type}`, { attributes: { 'messaging.message.id': event.id, 'db.collection.name': collection.collectionName } }, parent);
    const inSpan = trace.setSpan(parent, span);
    try {
      await context.with(inSpan, () => publishEvent(bus, event));
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      if (!(await busAnswers())) throw err;
      const attempts = (entry.attempts ?? 0) + 1;
      const reason = reasonOf(err, event.type);
      const path = `outbox.${id}`;
      if (attempts < maxAttempts) {
        await collection.updateOne(
          { _id: docId, [path]: { $exists: true } },
          { $set: { [`${path}.attempts`]: attempts, [`${path}.lastError`]: reason, [`${path}.retryAt`]: new Date(nowMs() + retryDelay(attempts)) } },
        );
        return false;
      }
      const { retryAt: _, ...kept } = entry;
      const parked: ParkedOutboxEntry = { ...kept, attempts, lastError: reason, reason, parkedAt: now() };
      await collection.updateOne({ _id: docId, [path]: { $exists: true } }, { $set: { [`outboxParked.${id}`]: parked, outboxParkedAt: parked.parkedAt }, $unset: { [path]: '' } });
      logger.error({ collection: collection.collectionName, docId, eventId: id, type: event.type, attempts, reason }, 'outbox event parked: it cannot be published');
      return true;
    }
    await context.with(inSpan, () => collection.updateOne({ _id: docId }, { $unset: { [`outbox.${id}`]: '' } }));
    span.end();
    return true;
  };

  /** Tries a document's entries; counts those left. Once the bus failed, entries are only counted. */
  const relayDoc = async (collection: OutboxCollection, doc: OutboxDoc, state: PassState) => {
    let cleared = true;
    for (const [id, entry] of Object.entries(doc.outbox ?? {})) {
      if (!state.busDown) {
        try {
          if (await publishEntry(collection, doc._id, id, entry)) continue;
        } catch (err) {
          state.busDown = err;
        }
      }
      cleared = false;
      state.left++;
    }
    // Only when nothing was queued meanwhile: the check and the clear are one update.
    if (cleared) {
      await collection.updateOne({ _id: doc._id, outboxPending: true, $or: [{ outbox: {} }, { outbox: { $exists: false } }] }, { $unset: { outboxPending: '', outbox: '' } });
    }
  };

  interface PassState {
    left: number;
    /** Set once the bus failed: the rest of the pass only counts. */
    busDown: unknown;
  }

  let retryWanted = false;
  /** When the last full pass ended (performance.now()), whoever started it. */
  let lastFull = 0;
  // Both passes may meet the same entry: JetStream drops the second copy by its message id, and
  // each clear is conditional.
  const passes = relayPasses<OutboxDoc, PassState>({
    collections,
    pendingField: 'outboxPending',
    entriesField: 'outbox',
    ready,
    newState: () => ({ left: 0, busDown: undefined }),
    left: (state) => state.left,
    relayDoc,
    settled(state, full) {
      if (full) lastFull = performance.now();
      // Left for a retry (or lost to a failure): a full pass soon finds them.
      retryWanted = state.left > 0 || state.busDown !== undefined || retryWanted;
    },
    failure: (state) => state.busDown,
    passFailed: () => (retryWanted = true),
    stopped: () => stopped,
    logger,
    what: 'outbox relay',
  });
  const { pendingLeft } = passes;

  const full = () => {
    retryWanted = false;
    return passes.full();
  };

  const gauges = [
    addGaugeProducer('ruilplein.outbox.pending', () => [...pendingLeft].map(([collection, value]) => ({ value, attributes: { collection } }))),
    addGaugeProducer('ruilplein.outbox.parked', () =>
      Promise.all(
        plain.map(async (c) => ({ value: (await parkedOutboxEntries(c)).length, attributes: { collection: c.collectionName } })),
      ),
    ),
  ];
  const intervalMs = options.intervalMs ?? 10_000;
  const retryIntervalMs = Math.min(options.retryIntervalMs ?? 1000, intervalMs);
  // Safety passes: soon while entries wait for a retry, else every intervalMs; never more often
  // than ten times the last one took (startPeriodic's pacing).
  const safety = startPeriodic({
    intervalMs: retryIntervalMs,
    restFactor: 10,
    due: () => retryWanted || performance.now() - lastFull >= intervalMs,
    work: full,
    logger,
    what: 'outbox safety pass',
  });
  void full();
  return {
    kick(collection?: string, id?: DocId) {
      // Called from a request's handler: the pass is the relay's work, its spans its own (publishEntry), not the request's.
      context.with(ROOT_CONTEXT, () => (collection === undefined || id === undefined ? void full() : passes.kick(collection, id)));
    },
    async flush() {
      await marking;
      retryWanted = false;
      await passes.flush();
    },
    async stop() {
      stopped = true;
      await safety.stop();
      for (const remove of gauges) remove();
      // Not the marking: on a store that scans, its first answer can take longer than a pod's grace period.
      await passes.drain();
    },
  };
}
