import { randomUUID } from 'node:crypto';
import type { mongo } from 'mongoose';
import { now, nowMs } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { addGaugeProducer } from '../metrics.ts';
import type { Connection } from '../mongo.ts';
import type { Worker } from '../nats.ts';
import { startPeriodic } from '../periodic.ts';
import { relayPasses, type DocId } from '../relay-passes.ts';
import { checkMail, type Mail } from './content.ts';
import { isPermanentMailFailure, type MailTransport } from './transports.ts';

/**
 * Mail waits inside the document whose change causes it, keyed by a mail id, written in the same
 * single-document update as that change (no transactions on FerretDB; like the event outbox,
 * docs/architecture.md "Data"): the change and its mail happen together or not at all. A
 * top-level marker `mailOutboxPending: true` lets the relay find them with one equality.
 */
export interface MailOutboxEntry {
  mail: Mail;
  queuedAt: Date;
  /** Failed sends so far (set by the relay). */
  attempts?: number;
  lastError?: string;
  /** Not tried again before this time. */
  retryAt?: Date;
  /** A relay is sending it until then: two relays (replicas) never hand one mail over at once. */
  claimUntil?: Date;
}

/**
 * A mail the relay gave up on, with why. Without its parts: they may hold a link that works once
 * (activation, reset), which should not outlive the attempt; the member asks for a new one.
 */
export interface ParkedMail {
  to: string;
  subject: string;
  transactional: boolean;
  queuedAt: Date;
  attempts: number;
  reason: string;
  parkedAt: Date;
}

/**
 * `$set` (or `$setOnInsert`) fields that queue mails in the document's mail outbox, marker
 * included; spread them into the update that makes the change. Throws on a mail no transport
 * would carry, before anything is written.
 */
export function mailFields(...mails: Mail[]): Record<string, MailOutboxEntry | true> {
  for (const mail of mails) checkMail(mail);
  const queuedAt = now();
  return { ...Object.fromEntries(mails.map((mail) => [`mailOutbox.${randomUUID()}`, { mail, queuedAt }])), mailOutboxPending: true };
}

/** Documents with mail to send. */
export const MAIL_PENDING = { mailOutboxPending: true } as const;
/** Documents with parked mail. */
export const MAIL_PARKED = { mailOutboxParkedAt: { $exists: true } } as const;

interface MailDoc {
  _id: DocId;
  mailOutbox?: Record<string, MailOutboxEntry>;
  mailOutboxPending?: true;
  mailOutboxParked?: Record<string, ParkedMail>;
  mailOutboxParkedAt?: Date;
}
type MailCollection = mongo.Collection<MailDoc>;

/** Parked mails of a collection, oldest first (an operator's list; it reads every parked document). */
export async function parkedMails(collection: MailCollection): Promise<{ docId: DocId; id: string; parked: ParkedMail }[]> {
  const docs = await collection.find(MAIL_PARKED, { projection: { mailOutboxParked: 1 } }).toArray();
  return docs
    .flatMap((doc) => Object.entries(doc.mailOutboxParked ?? {}).map(([id, parked]) => ({ docId: doc._id, id, parked })))
    .sort((a, b) => +new Date(a.parked.parkedAt) - +new Date(b.parked.parkedAt));
}

export interface MailRelay extends Worker {
  /**
   * Send soon: call after a write that queued mail. With the collection and the document's id
   * only that document is read (an `_id` lookup); without, a full pass.
   */
  kick(collection?: string, id?: DocId): void;
  /** One full pass; resolves when every mail pending at its start and due was tried. */
  flush(): Promise<void>;
}

export interface MailRelayOptions {
  db: Connection;
  /** Names of the collections whose documents queue mail. */
  collections: string[];
  transport: MailTransport;
  logger: Logger;
  /**
   * Full passes that find what no kick announced (a writer died before its kick). Default 1 min:
   * kicks carry the everyday mail, and on a store that scans each pass reads the collection.
   */
  intervalMs?: number;
  /** Failed sends of one mail before it is parked. Default 10. */
  maxAttempts?: number;
  /**
   * Wait before trying a mail again, by failed attempts so far. Default 1 min doubling, at most
   * 1 h: about four hours in all, while the mail server is away or refuses for a while.
   */
  retryDelayMs?: (attempts: number) => number;
  /** How long a relay may take to hand one mail over before another may try it. Default 2 min. */
  claimMs?: number;
}

const defaultRetryDelay = (attempts: number) => Math.min(3_600_000, 60_000 * 2 ** (attempts - 1));

const reasonOf = (err: unknown): string => (err as Error)?.message?.replace(/\s+/g, ' ').slice(0, 500) || String(err);

/** When an entry is worth looking at again (a retry's or a claim's time), or undefined: now. */
const waitsUntil = (entry: MailOutboxEntry, at: number): number | undefined => {
  const until = Math.max(entry.retryAt ? +new Date(entry.retryAt) : 0, entry.claimUntil ? +new Date(entry.claimUntil) : 0);
  return until > at ? until : undefined;
};

/**
 * Sends queued mail and clears each entry only after the transport took it. A crash between the
 * two sends it again (same id: the local outbox keeps it once, SMTP gets the same Message-ID).
 * A failed send is tried again later with growing delays; after `maxAttempts`, or at once when the
 * server refuses for good (5xx), it is parked with the reason (`mailOutboxParked.<id>`) so it never
 * holds back the others. Counted by the gauges `ruilplein.mail.pending` and `ruilplein.mail.parked`.
 */
export function startMailRelay(options: MailRelayOptions): MailRelay {
  const { db, transport, logger } = options;
  const maxAttempts = options.maxAttempts ?? 10;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  const claimMs = options.claimMs ?? 120_000;
  const store = db.db;
  if (!store) throw new Error('mail relay: the store is not connected');
  const collections = options.collections.map((name) => store.collection<MailDoc>(name));
  let stopped = false;
  /** The earliest time a waiting entry becomes due (platform clock); a full pass then finds it. */
  let nextDue = Infinity;
  const ready = Promise.all(
    collections.map(async (c) => {
      await c.createIndex({ mailOutboxPending: 1, _id: 1 });
      await c.createIndex({ mailOutboxParkedAt: 1 });
    }),
  ).catch((err: unknown) => logger.warn({ err }, 'mail outbox indexes not created'));

  /** Tries one entry; true when it left the outbox (sent or parked). */
  const sendEntry = async (collection: MailCollection, docId: DocId, id: string, entry: MailOutboxEntry, wait: (until: number) => void): Promise<boolean> => {
    const path = `mailOutbox.${id}`;
    const at = nowMs();
    const until = waitsUntil(entry, at);
    if (until !== undefined) {
      wait(until);
      return false;
    }
    // Claimed by comparing the claim this relay read: of two relays, one wins.
    const claimUntil = new Date(at + claimMs);
    const claimed = await collection.updateOne(
      { _id: docId, [`${path}.queuedAt`]: { $exists: true }, [`${path}.claimUntil`]: entry.claimUntil ?? { $exists: false } },
      { $set: { [`${path}.claimUntil`]: claimUntil } },
    );
    if (claimed.modifiedCount !== 1) return false;
    try {
      await transport.send(id, entry.mail);
    } catch (err) {
      const attempts = (entry.attempts ?? 0) + 1;
      const reason = reasonOf(err);
      const mine = { _id: docId, [`${path}.claimUntil`]: claimUntil };
      if (attempts < maxAttempts && !isPermanentMailFailure(err)) {
        const retryAt = new Date(nowMs() + retryDelay(attempts));
        await collection.updateOne(mine, {
          $set: { [`${path}.attempts`]: attempts, [`${path}.lastError`]: reason, [`${path}.retryAt`]: retryAt },
          $unset: { [`${path}.claimUntil`]: '' },
        });
        logger.warn({ collection: collection.collectionName, docId, mailId: id, attempts, reason }, 'mail not sent; trying again later');
        wait(+retryAt);
        return false;
      }
      const { mail } = entry;
      const parked: ParkedMail = { to: mail.to, subject: mail.subject, transactional: mail.transactional, queuedAt: entry.queuedAt, attempts, reason, parkedAt: now() };
      await collection.updateOne(mine, { $set: { [`mailOutboxParked.${id}`]: parked, mailOutboxParkedAt: parked.parkedAt }, $unset: { [path]: '' } });
      logger.error({ collection: collection.collectionName, docId, mailId: id, attempts, reason }, 'mail parked: it cannot be sent');
      return true;
    }
    await collection.updateOne({ _id: docId }, { $unset: { [path]: '' } });
    return true;
  };

  /** Tries a document's mails; counts those left. */
  const relayDoc = async (collection: MailCollection, doc: MailDoc, state: PassState) => {
    let cleared = true;
    for (const [id, entry] of Object.entries(doc.mailOutbox ?? {})) {
      if (stopped) return;
      let sent = false;
      try {
        sent = await sendEntry(collection, doc._id, id, entry, (until) => (state.due = Math.min(state.due, until)));
      } catch (err) {
        // The store failed: the entry stays and a later pass tries it.
        logger.warn({ err, collection: collection.collectionName, docId: doc._id, mailId: id }, 'mail outbox entry not handled');
        state.due = Math.min(state.due, nowMs() + 1000);
      }
      if (!sent) {
        cleared = false;
        state.left++;
      }
    }
    // Only when nothing was queued meanwhile: the check and the clear are one update.
    if (cleared) {
      await collection.updateOne(
        { _id: doc._id, mailOutboxPending: true, $or: [{ mailOutbox: {} }, { mailOutbox: { $exists: false } }] },
        { $unset: { mailOutboxPending: '', mailOutbox: '' } },
      );
    }
  };

  interface PassState {
    left: number;
    due: number;
  }

  let lastFull = -Infinity;
  const passes = relayPasses<MailDoc, PassState>({
    collections,
    pendingField: 'mailOutboxPending',
    entriesField: 'mailOutbox',
    ready,
    newState: () => ({ left: 0, due: Infinity }),
    left: (state) => state.left,
    relayDoc,
    fullStarting: () => (nextDue = Infinity),
    settled(state, full) {
      if (full) lastFull = performance.now();
      nextDue = Math.min(nextDue, state.due);
    },
    passFailed: () => (nextDue = Math.min(nextDue, nowMs() + 1000)),
    stopped: () => stopped,
    logger,
    what: 'mail relay',
  });
  const { pendingLeft } = passes;

  const gauges = [
    addGaugeProducer('ruilplein.mail.pending', () => [...pendingLeft].map(([collection, value]) => ({ value, attributes: { collection } }))),
    addGaugeProducer('ruilplein.mail.parked', () =>
      Promise.all(collections.map(async (c) => ({ value: (await parkedMails(c)).length, attributes: { collection: c.collectionName } }))),
    ),
  ];
  const intervalMs = options.intervalMs ?? 60_000;
  // Checked every second: a full pass when a waiting mail is due, else every intervalMs; never
  // more often than ten times the last one took (startPeriodic's pacing).
  const safety = startPeriodic({
    intervalMs: Math.min(1000, intervalMs),
    restFactor: 10,
    due: () => nowMs() >= nextDue || performance.now() - lastFull >= intervalMs,
    work: () => passes.full(),
    logger,
    what: 'mail relay pass',
  });
  void passes.full();

  return {
    kick(collection?: string, id?: DocId) {
      if (!stopped) passes.kick(collection, id);
    },
    flush: () => passes.flush(),
    async stop() {
      stopped = true;
      await safety.stop();
      for (const remove of gauges) remove();
      await passes.drain();
      transport.close?.();
    },
  };
}
