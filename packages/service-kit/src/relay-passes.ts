// The passes of a relay over documents that carry pending entries (the event outbox, the mail
// outbox): what each relay does with one document is its own; finding the documents is shared.
import type { mongo } from 'mongoose';
import type { Logger } from './logger.ts';

/** A document's `_id` as services choose it. */
export type DocId = string | number | mongo.ObjectId;

export interface RelayPassesOptions<D extends { _id: DocId }, S> {
  collections: mongo.Collection<D>[];
  /** The field that marks a document with pending entries (`outboxPending: true`). */
  pendingField: string;
  /** The field that holds the entries, the only one a pass reads besides the marker. */
  entriesField: string;
  /** Resolves once the indexes the passes rely on exist. */
  ready: Promise<unknown>;
  /** A pass's own bookkeeping, new for each pass. */
  newState(): S;
  /** Entries the pass left pending so far. */
  left(state: S): number;
  /** Tries one document's entries. */
  relayDoc(collection: mongo.Collection<D>, doc: D, state: S): Promise<void>;
  /** Runs when a full pass starts. */
  fullStarting?(): void;
  /** Runs after every pass, also one that failed: what it left decides when the next is due. */
  settled(state: S, full: boolean): void;
  /** An error to end the pass with once settled (the relay's target was away). */
  failure?(state: S): unknown;
  /** A pass failed (the store, or `failure`): the relay plans a retry. */
  passFailed(err: unknown): void;
  stopped(): boolean;
  logger: Logger;
  /** Names the relay in its log lines. */
  what: string;
}

/**
 * Full passes (every pending document of every collection, paged by `_id` so entries that stay
 * pending do not come back) and targeted passes (the kicked documents only, each read by `_id`:
 * cheap on FerretDB), each in a lane of its own, one pass at a time each, so a kicked entry never
 * waits behind a full pass. Both may meet the same entry: each relay makes that harmless.
 */
export function relayPasses<D extends { _id: DocId }, S>(options: RelayPassesOptions<D, S>) {
  const { collections, pendingField, entriesField } = options;
  /** Entries each collection still held after the last full pass. */
  const pendingLeft = new Map<string, number>();
  const pending = { [pendingField]: true } as mongo.Filter<D>;
  let fullWanted = true;
  let targets = new Map<string, Set<DocId>>();

  const sweep = async (collection: mongo.Collection<D>, state: S) => {
    let after: DocId | undefined;
    while (!options.stopped()) {
      const filter = after === undefined ? pending : ({ ...pending, _id: { $gt: after } } as mongo.Filter<D>);
      const docs = (await collection.find(filter, { projection: { [entriesField]: 1 } }).sort({ _id: 1 }).limit(100).toArray()) as D[];
      for (const doc of docs) await options.relayDoc(collection, doc, state);
      if (docs.length < 100) return;
      after = docs.at(-1)!._id;
    }
  };

  const pass = (full: boolean) => async () => {
    await options.ready;
    const state = options.newState();
    let only = new Map<string, Set<DocId>>();
    if (full) {
      fullWanted = false;
      options.fullStarting?.();
    } else {
      only = targets;
      targets = new Map();
    }
    try {
      for (const collection of collections) {
        if (full) {
          const before = options.left(state);
          await sweep(collection, state);
          pendingLeft.set(collection.collectionName, options.left(state) - before);
          continue;
        }
        for (const id of only.get(collection.collectionName) ?? []) {
          const doc = (await collection.findOne({ _id: id } as mongo.Filter<D>, { projection: { [entriesField]: 1, [pendingField]: 1 } })) as (D & Record<string, unknown>) | null;
          if (doc?.[pendingField]) await options.relayDoc(collection, doc, state);
        }
      }
    } finally {
      options.settled(state, full);
    }
    const failure = options.failure?.(state);
    if (failure) throw failure;
  };

  const lane = (run: () => Promise<void>) => {
    const self = {
      running: undefined as Promise<void> | undefined,
      again: false,
      run(): Promise<void> {
        if (self.running) {
          self.again = true;
          return self.running;
        }
        self.running = run()
          .catch((err: unknown) => {
            options.passFailed(err);
            options.logger.warn({ err }, `${options.what} pass failed; retrying`);
          })
          .finally(() => {
            self.running = undefined;
            if (self.again && !options.stopped()) {
              self.again = false;
              void self.run();
            }
          });
        return self.running;
      },
    };
    return self;
  };
  const fullLane = lane(pass(true));
  const kickLane = lane(pass(false));

  return {
    pendingLeft,
    /** A full pass now (or again after the one running). */
    full: () => fullLane.run(),
    /** That document soon; without one, a full pass. */
    kick(collection?: string, id?: DocId) {
      if (collection === undefined || id === undefined) return void fullLane.run();
      let ids = targets.get(collection);
      if (!ids) targets.set(collection, (ids = new Set()));
      ids.add(id);
      void kickLane.run();
    },
    /** Resolves after a full pass that started after this call. */
    async flush() {
      fullWanted = true;
      // A full pass already running may have started before this call: wait until one starts after it.
      while (fullWanted && !options.stopped()) await (fullLane.running ?? fullLane.run());
    },
    /** Waits for the passes under way (call once `stopped()` answers true). */
    async drain() {
      await Promise.all([fullLane.running, kickLane.running]);
    },
  };
}
