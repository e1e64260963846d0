import type { EventEnvelope } from '@ruilplein/contracts';
import { Schema } from 'mongoose';
import type { Connection } from './mongo.ts';
import type { Logger } from './logger.ts';
import { currentTraceHeaders, publishEvent, type Bus, type Worker } from './nats.ts';

/**
 * Pending events live inside the document they belong to, keyed by event id, and are written in
 * the same single-document update as the state change (no transactions on FerretDB; STORE.md).
 */
export interface OutboxEntry {
  event: EventEnvelope;
  trace: Record<string, string>;
}

/** Add to a mongoose schema that carries an outbox. */
export const outboxField = { outbox: { type: Schema.Types.Mixed, default: undefined } };

/** `$set` (or `$setOnInsert`) fields that queue events in the document's outbox. */
export function outboxFields(...events: EventEnvelope[]): Record<string, OutboxEntry> {
  const trace = currentTraceHeaders();
  return Object.fromEntries(events.map((event) => [`outbox.${event.id}`, { event, trace }]));
}

export const PENDING = { outbox: { $exists: true, $ne: {} } } as const;

export interface OutboxRelay extends Worker {
  /** Publish soon: call after a write that queued events. */
  kick(): void;
  /** One full pass; resolves when everything pending at its start is published. */
  flush(): Promise<void>;
}

/**
 * Publishes pending events with their id as JetStream message id and clears each one only after
 * JetStream acknowledged it. A crash anywhere leaves the event pending; the next pass re-publishes
 * and JetStream's duplicate window drops the copy.
 */
export function startOutboxRelay(options: {
  bus: Bus;
  db: Connection;
  /** Names of the collections whose documents carry an outbox. */
  collections: string[];
  logger: Logger;
  intervalMs?: number;
}): OutboxRelay {
  const { bus, db, logger } = options;
  const collections = options.collections.map((name) => db.collection(name));
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const pass = async () => {
    for (const collection of collections) {
      for (;;) {
        const docs = await collection.find(PENDING, { projection: { outbox: 1 } }).limit(100).toArray();
        for (const doc of docs) {
          for (const [id, entry] of Object.entries(doc.outbox as Record<string, OutboxEntry>)) {
            await publishEvent(bus, entry.event, entry.trace);
            await collection.updateOne({ _id: doc._id }, { $unset: { [`outbox.${id}`]: '' } });
          }
        }
        if (docs.length < 100) break;
      }
    }
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch((err) => logger.warn({ err }, 'outbox relay pass failed; retrying'))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };

  const timer = setInterval(() => void run(), options.intervalMs ?? 1000);
  void run();
  return {
    kick: () => void run(),
    async flush() {
      await running;
      await run();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
