// `npm run deadletter -- list [durable]` shows the messages consumers parked on the dead-letter
// stream; `npm run deadletter -- replay <durable>` publishes them again to their original subjects.
// NATS_URL (credentials allowed: nats://user:password@host:port) or the local platform's NATS.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, headers, NatsError, type JsMsg, type NatsConnection } from 'nats';
import { repoRoot } from './paths.ts';
import { fixedPorts } from './platform.ts';
import { NATS_ADMIN } from './stores.ts';

/** Written by service-kit's consume(): `deadletter.<service>.<durable>`, with these headers. */
const STREAM = 'deadletter';
const H = {
  subject: 'ruilplein-original-subject',
  reason: 'ruilplein-reason',
  deliveries: 'ruilplein-deliveries',
  attempts: 'ruilplein-attempts',
  durable: 'ruilplein-durable',
  eventId: 'ruilplein-event-id',
  eventType: 'ruilplein-event-type',
};

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

/** The local platform's NATS as its admin user when `npm start` made users, else NATS_URL. */
export function defaultNatsUrl(): string {
  if (process.env.NATS_URL) return process.env.NATS_URL;
  const url = `nats://127.0.0.1:${fixedPorts.stores.nats}`;
  const usersFile = join(repoRoot, '.data', 'nats-users.json');
  const password = existsSync(usersFile) ? (JSON.parse(readFileSync(usersFile, 'utf8')) as Record<string, string>)[NATS_ADMIN] : undefined;
  return password ? url.replace('://', `://${NATS_ADMIN}:${encodeURIComponent(password)}@`) : url;
}

/** nats.js ignores credentials in a server URL: they become connect options. */
export function connectNats(url: string = defaultNatsUrl()): Promise<NatsConnection> {
  const parsed = URL.parse(url);
  if (!parsed?.username) return connect({ servers: url, name: 'deadletter-cli' });
  return connect({
    servers: url.replace(/\/\/[^@/]*@/, '//'),
    user: decodeURIComponent(parsed.username),
    pass: decodeURIComponent(parsed.password),
    name: 'deadletter-cli',
  });
}

const filterFor = (durable?: string) => (durable ? `${STREAM}.*.${durable}` : `${STREAM}.>`);

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
    subject: h(H.subject) ?? '?',
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
    const info = await (await nc.jetstreamManager()).streams.info(STREAM, { subjects_filter: filter });
    total = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  } catch (err) {
    if (err instanceof NatsError && err.api_error?.err_code === 10059) return []; // no consumer ever parked anything
    throw err;
  }
  if (total === 0) return [];
  const consumer = await nc.jetstream().consumers.get(STREAM, { filterSubjects: [filter] });
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
 * Publishes each parked message of a durable to its original subject with a new message id (the
 * old one may still be inside JetStream's duplicate window), then removes it from the dead-letter
 * stream. Every durable on that subject gets it again; those that handled the event already skip
 * it by their claim, so a replay changes nothing twice.
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
    await js.publish(letter.subject, msg.data, { msgID: `${letter.eventId ?? 'replay'}:replay:${randomUUID()}`, headers: h });
    await jsm.streams.deleteMessage(STREAM, letter.seq, false);
    replayed.push(letter);
  }
  return replayed;
}

function table(letters: DeadLetter[]): string {
  const rows = [
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
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const USAGE = 'usage: npm run deadletter -- list [durable] | replay <durable>';

export async function main(args: string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, durable] = args;
  if (!(command === 'list' || (command === 'replay' && durable))) {
    out(USAGE);
    return 2;
  }
  const url = defaultNatsUrl();
  const nc = await connectNats(url).catch((err: unknown) => {
    const where = url.replace(/\/\/[^@/]*@/, '//'); // never print a password
    throw new Error(`cannot reach NATS at ${where} (${(err as Error).message}): is \`npm start\` running, or is NATS_URL set?`, { cause: err });
  });
  try {
    if (command === 'list') {
      const letters = await listDeadLetters(nc, durable);
      out(letters.length ? table(letters) : `no parked messages${durable ? ` for ${durable}` : ''}`);
    } else {
      const replayed = await replayDeadLetters(nc, durable!);
      for (const l of replayed) out(`replayed ${l.seq} ${l.subject} ${l.eventId ?? ''}`);
      out(`${replayed.length} message(s) of ${durable} replayed`);
    }
    return 0;
  } finally {
    await nc.drain();
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
