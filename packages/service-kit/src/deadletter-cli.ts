// What an operator does with events that did not get through:
//   npm run deadletter -- list [durable] | replay <durable> | drop <durable>
//     the messages consumers parked on the dead-letter stream; a replay reaches the durable that
//     parked them and no other (`<stream>.replay.<durable>`, see replaySubject).
//   npm run deadletter -- outbox list <service> | outbox replay <service> [event id]
//     the outbox entries a service's relay parked; a replay puts them back in their outbox, and the
//     service's running relay publishes them.
// NATS_URL and MONGODB_URL (credentials allowed), else the stores of the local platform as
// `npm start` wrote them into `.data/stores.json` (RUILPLEIN_DATA_DIR for another folder).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { streamOf } from '@ruilplein/contracts';
import { connect, headers, NatsError, type JsMsg, type NatsConnection } from 'nats';
import { connectMongo, type Connection } from './mongo.ts';
import { DEAD_LETTER_HEADERS as H, DEAD_LETTER_STREAM, natsServers, replaySubject } from './nats.ts';
import { entryEvent, parkedOutboxEntries, replayParkedOutboxEntry, type DocId, type OutboxDoc, type ParkedOutboxEntry } from './outbox.ts';

export interface DeadLetter {
  /** Sequence in the dead-letter stream. */
  seq: number;
  durable: string;
  /** Where the message was published first. */
  subject: string;
  reason: string;
  deliveries: number;
  attempts?: number;
  eventId?: string;
  eventType?: string;
  /** When it was parked. */
  time: Date;
}

/** What `npm start` writes for tools: its stores' URLs, NATS as the privileged user. */
export interface LocalStoresFile {
  mongoUrl: string;
  natsUrl: string;
}
export const LOCAL_STORES_FILE = 'stores.json';

function localStores(env: NodeJS.ProcessEnv): Partial<LocalStoresFile> {
  const file = join(env.RUILPLEIN_DATA_DIR ?? '.data', LOCAL_STORES_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalStoresFile) : {};
}

const where = (url: string) => url.replace(/\/\/[^@/]*@/, '//'); // never print a password

function storeUrl(env: NodeJS.ProcessEnv, name: 'NATS_URL' | 'MONGODB_URL'): string {
  const url = env[name] ?? localStores(env)[name === 'NATS_URL' ? 'natsUrl' : 'mongoUrl'];
  if (!url) throw new Error(`${name} is not set and no local platform wrote .data/${LOCAL_STORES_FILE}: run \`npm start\`, or set ${name}`);
  return url;
}

const filterFor = (durable?: string) => (durable ? `${DEAD_LETTER_STREAM}.*.${durable}` : `${DEAD_LETTER_STREAM}.>`);

function describe(msg: JsMsg): DeadLetter {
  const h = (name: string) => msg.headers?.get(name) || undefined;
  let body: { id?: unknown; type?: unknown } = {};
  try {
    body = msg.json();
  } catch {
    // A malformed message: the headers say what is known.
  }
  const attempts = h(H.attempts);
  return {
    seq: msg.info.streamSequence,
    durable: h(H.durable) ?? msg.subject.split('.').slice(2).join('.'),
    subject: h(H.originalSubject) ?? '?',
    reason: h(H.reason) ?? '',
    deliveries: Number(h(H.deliveries) ?? 0),
    ...(attempts && { attempts: Number(attempts) }),
    eventId: h(H.eventId) ?? (typeof body.id === 'string' ? body.id : undefined),
    eventType: h(H.eventType) ?? (typeof body.type === 'string' ? body.type : undefined),
    time: new Date(Math.floor(msg.info.timestampNanos / 1e6)),
  };
}

/** The parked messages (all, or one durable's), oldest first. */
async function parked(nc: NatsConnection, durable?: string): Promise<{ letter: DeadLetter; msg: JsMsg }[]> {
  const filter = filterFor(durable);
  let total: number;
  try {
    const info = await (await nc.jetstreamManager()).streams.info(DEAD_LETTER_STREAM, { subjects_filter: filter });
    total = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  } catch (err) {
    if (err instanceof NatsError && err.api_error?.err_code === 10059) return []; // no consumer ever parked anything
    throw err;
  }
  if (total === 0) return [];
  const consumer = await nc.jetstream().consumers.get(DEAD_LETTER_STREAM, { filterSubjects: [filter] });
  const out: { letter: DeadLetter; msg: JsMsg }[] = [];
  for await (const msg of await consumer.fetch({ max_messages: total, expires: 5000 })) {
    out.push({ letter: describe(msg), msg });
    if (out.length >= total) break;
  }
  return out;
}

export async function listDeadLetters(nc: NatsConnection, durable?: string): Promise<DeadLetter[]> {
  return (await parked(nc, durable)).map((p) => p.letter);
}

/**
 * Publishes each parked message of a durable to that durable's replay subject (in the stream it
 * reads, which no other durable reads) with a new message id (the old one may still be inside
 * JetStream's duplicate window), then removes it from the dead-letter stream. The durable forgot
 * the event when it parked it, so its handler runs afresh.
 */
export async function replayDeadLetters(nc: NatsConnection, durable: string): Promise<DeadLetter[]> {
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  const replayed: DeadLetter[] = [];
  for (const { letter, msg } of await parked(nc, durable)) {
    if (letter.subject === '?') continue;
    const h = headers();
    for (const key of msg.headers?.keys() ?? []) {
      if (!/^(ruilplein-|nats-)/i.test(key)) h.set(key, msg.headers!.get(key));
    }
    h.set(H.originalSubject, letter.subject);
    await js.publish(replaySubject(streamOf(letter.subject), letter.durable), msg.data, { msgID: `${letter.eventId ?? 'replay'}:replay:${randomUUID()}`, headers: h });
    await jsm.streams.deleteMessage(DEAD_LETTER_STREAM, letter.seq, false);
    replayed.push(letter);
  }
  return replayed;
}

/** Removes a durable's parked messages for good (after a look at them). */
export async function dropDeadLetters(nc: NatsConnection, durable: string): Promise<DeadLetter[]> {
  const jsm = await nc.jetstreamManager();
  const dropped: DeadLetter[] = [];
  for (const { letter } of await parked(nc, durable)) {
    await jsm.streams.deleteMessage(DEAD_LETTER_STREAM, letter.seq, false);
    dropped.push(letter);
  }
  return dropped;
}

export interface ParkedOutboxItem {
  collection: string;
  docId: DocId;
  eventId: string;
  entry: ParkedOutboxEntry;
}

/** Every parked outbox entry of a service's database, each collection read once (an operator's tool). */
export async function listParkedOutbox(db: Connection): Promise<ParkedOutboxItem[]> {
  const out: ParkedOutboxItem[] = [];
  for (const { name } of await db.db!.listCollections({}, { nameOnly: true }).toArray()) {
    for (const { docId, id, entry } of await parkedOutboxEntries(db.db!.collection(name))) out.push({ collection: name, docId, eventId: id, entry });
  }
  return out.sort((a, b) => +new Date(a.entry.parkedAt) - +new Date(b.entry.parkedAt));
}

/** Puts parked entries (all, or one event's) back in their outbox; the service's relay publishes them. */
export async function replayParkedOutbox(db: Connection, eventId?: string): Promise<ParkedOutboxItem[]> {
  const replayed: ParkedOutboxItem[] = [];
  for (const item of await listParkedOutbox(db)) {
    if (eventId && item.eventId !== eventId) continue;
    if (await replayParkedOutboxEntry(db.db!.collection<OutboxDoc>(item.collection), item.docId, item.eventId)) replayed.push(item);
  }
  return replayed;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const letterRows = (letters: DeadLetter[]) => [
  ['SEQ', 'PARKED AT', 'DURABLE', 'SUBJECT', 'DELIVERIES', 'EVENT TYPE', 'EVENT ID', 'REASON'],
  ...letters.map((l) => [
    String(l.seq),
    l.time.toISOString(),
    l.durable,
    l.subject,
    l.attempts === undefined ? String(l.deliveries) : `${l.deliveries} (${l.attempts} tried)`,
    l.eventType ?? '-',
    l.eventId ?? '-',
    l.reason,
  ]),
];

const outboxRows = (items: ParkedOutboxItem[]) => [
  ['PARKED AT', 'COLLECTION', 'DOCUMENT', 'EVENT TYPE', 'EVENT ID', 'ATTEMPTS', 'REASON'],
  ...items.map((i) => [
    new Date(i.entry.parkedAt).toISOString(),
    i.collection,
    String(i.docId),
    entryEvent(i.entry).type,
    i.eventId,
    String(i.entry.attempts ?? 0),
    i.entry.reason,
  ]),
];

const USAGE = [
  'usage: npm run deadletter -- list [durable] | replay <durable> | drop <durable>',
  '       npm run deadletter -- outbox list <service> | outbox replay <service> [event id]',
].join('\n');

export async function main(args: string[], out: (line: string) => void = console.log, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'outbox') return outboxMain(rest, out, env);
  const [durable] = rest;
  if (!(command === 'list' || ((command === 'replay' || command === 'drop') && durable))) {
    out(USAGE);
    return 2;
  }
  const url = storeUrl(env, 'NATS_URL');
  const nc = await connect({ ...natsServers(url), name: 'deadletter-cli' }).catch((err: unknown) => {
    throw new Error(`cannot reach NATS at ${where(url)} (${(err as Error).message}): is \`npm start\` running, or is NATS_URL set?`, { cause: err });
  });
  try {
    if (command === 'list') {
      const letters = await listDeadLetters(nc, durable);
      out(letters.length ? table(letterRows(letters)) : `no parked messages${durable ? ` for ${durable}` : ''}`);
    } else if (command === 'replay') {
      const replayed = await replayDeadLetters(nc, durable!);
      for (const l of replayed) out(`replayed ${l.seq} ${l.subject} ${l.eventId ?? ''}`);
      out(`${replayed.length} message(s) of ${durable} replayed to ${durable} only`);
    } else {
      const dropped = await dropDeadLetters(nc, durable!);
      out(`${dropped.length} message(s) of ${durable} dropped`);
    }
    return 0;
  } finally {
    await nc.drain();
  }
}

async function outboxMain([command, service, eventId]: string[], out: (line: string) => void, env: NodeJS.ProcessEnv): Promise<number> {
  if (!((command === 'list' || command === 'replay') && service)) {
    out(USAGE);
    return 2;
  }
  const url = storeUrl(env, 'MONGODB_URL');
  // Each service's database is named after it.
  const db = await connectMongo(url, service).catch((err: unknown) => {
    throw new Error(`cannot reach the store at ${where(url)} (${(err as Error).message}): is \`npm start\` running, or is MONGODB_URL set?`, { cause: err });
  });
  try {
    if (command === 'list') {
      const items = await listParkedOutbox(db);
      out(items.length ? table(outboxRows(items)) : `no parked outbox entries in ${service}`);
    } else {
      const replayed = await replayParkedOutbox(db, eventId);
      for (const i of replayed) out(`back in the outbox: ${i.collection} ${String(i.docId)} ${entryEvent(i.entry).type} ${i.eventId}`);
      out(`${replayed.length} entr${replayed.length === 1 ? 'y' : 'ies'} of ${service} back in the outbox; its running relay publishes them`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

if (import.meta.main) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (err) {
    console.error(`deadletter: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
