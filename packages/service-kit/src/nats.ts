import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { EventEnvelopeSchema, schemaVersionOf, streamOf, type EventEnvelope, type EventRegistry, type QueryDef } from '@ruilplein/contracts';
import type { Connection, mongo } from 'mongoose';
import {
  AckPolicy,
  connect,
  consumerOpts,
  DeliverPolicy,
  ErrorCode,
  headers,
  JSONCodec,
  nanos,
  NatsError,
  type ConsumerConfig,
  type ConsumerMessages,
  type ConsumerUpdateConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type MsgHdrs,
  type NatsConnection,
  type StreamConfig,
} from 'nats';
import { ZodError, type z } from 'zod';
import { now, nowMs } from './clock.ts';
import { HttpError } from './errors.ts';
import type { Logger } from './logger.ts';
import { addGaugeProducer, recordDuration } from './metrics.ts';
import { startPeriodic, type Periodic, type Round, type Worker } from './periodic.ts';

const codec = JSONCodec();
const tracer = trace.getTracer('@ruilplein/service-kit');

/** JetStream refuses a second message with the same id inside this window (outbox re-publishes). */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
export const DEAD_LETTER_STREAM = 'deadletter';

/**
 * `deadletter.<service>.<durable>`, the service being the durable's first word (durables are
 * named `<service>-…`): NATS permissions match whole tokens only, so a service's user may publish
 * `deadletter.<service>.>` and no other service's dead letters.
 */
export function deadLetterSubject(durable: string): string {
  return `${DEAD_LETTER_STREAM}.${durable.split('-')[0]}.${durable}`;
}

const REPLAY_ENTITY = 'replay';

/**
 * Where a replayed dead letter goes: `<stream>.replay.<durable>`, in the stream the durable reads
 * (a consumer reads one stream) and among its filter subjects, and no other durable's: a replay
 * reaches the one consumer that parked it. No event subject has the entity `replay`
 * (registryProblems refuses one).
 */
export function replaySubject(stream: string, durable: string): string {
  return `${stream}.${REPLAY_ENTITY}.${durable}`;
}

/** Headers of a dead letter (consume() writes them, the deadletter CLI reads them). */
export const DEAD_LETTER_HEADERS = {
  /** The subject the event was published to (on a replayed copy: the one before the replay). */
  originalSubject: 'ruilplein-original-subject',
  reason: 'ruilplein-reason',
  /** JetStream's delivery count of the message parked. */
  deliveries: 'ruilplein-deliveries',
  /** Handler runs, when the handler ran. */
  attempts: 'ruilplein-attempts',
  durable: 'ruilplein-durable',
  eventId: 'ruilplein-event-id',
  eventType: 'ruilplein-event-type',
} as const;

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

/**
 * `url` may name several servers of one cluster, comma-separated (`nats://a:4222,nats://b:4222`):
 * the client connects to any and moves to another when its server goes.
 */
export async function connectBus(url: string, name: string): Promise<Bus> {
  const nc = await connect({ ...natsServers(url), name, maxReconnectAttempts: -1 });
  return { nc, js: nc.jetstream(), jsm: await nc.jetstreamManager() };
}

/**
 * `nats://user:password@host:port` (each service its own NATS user): nats.js ignores credentials
 * in a server URL, so they become connect options.
 */
export function natsServers(url: string): { servers: string[]; user?: string; pass?: string } {
  const servers = url.split(',').map((s) => s.trim());
  const withUser = servers.map((s) => URL.parse(s)).find((u) => u?.username);
  if (!withUser) return { servers };
  return {
    servers: servers.map((s) => s.replace(/\/\/[^@/]*@/, '//')),
    user: decodeURIComponent(withUser.username),
    pass: decodeURIComponent(withUser.password),
  };
}

const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;
/** As CONSUMER_SETTLING below, for a stream several replicas and services create at once on a cluster. */
const STREAM_SETTLING = [STREAM_NOT_FOUND, STREAM_NAME_IN_USE];
const isPermissionError = (err: unknown) => err instanceof NatsError && err.code === ErrorCode.PermissionsViolation;
const sameSettings = (have: Partial<StreamConfig>, want: Partial<StreamConfig>) =>
  [...(have.subjects ?? [])].sort().join(' ') === [...(want.subjects ?? [])].sort().join(' ') &&
  have.duplicate_window === want.duplicate_window &&
  have.max_age === want.max_age &&
  (have.num_replicas || 1) === (want.num_replicas || 1);

/**
 * How many copies of each stream a clustered NATS keeps: NATS_STREAM_REPLICAS (the local
 * clustered mode sets 3 with its three nodes), default 1 as on a single server. Consumers follow
 * their stream's count.
 */
export function streamReplicas(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.NATS_STREAM_REPLICAS;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 5) throw new Error(`NATS_STREAM_REPLICAS: expected a whole number from 1 to 5, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Makes sure a stream exists with the kit's settings; one per publishing service, holding
 * `<service>.>`. Its owner creates or updates it. A service that reads it (its NATS rights from the
 * registry) may create it with the same settings, so no service waits for another to be deployed
 * first, but only the owner changes its settings: a reader leaves differing settings alone.
 */
export async function ensureStream(bus: Bus, name: string, subjects = [`${name}.>`], logger?: Logger): Promise<void> {
  await whileJetStreamBusy(() => ensureStreamOnce(bus, name, subjects, logger), `stream ${name}`, logger, STREAM_SETTLING);
}

/**
 * Up to about a minute: a three-node JetStream placing every service's streams and consumers at
 * once on two busy cores answered one consumer step only after four 5 s timeouts (a CI run).
 */
const JETSTREAM_BUSY_ATTEMPTS = 10;
/** JetStream not (yet) answering: no meta or stream leader (a cluster starting or electing). */
const JETSTREAM_UNAVAILABLE = 10008;

/**
 * Runs a JetStream administration step again when its request timed out or JetStream said it
 * was unavailable: a clustered JetStream (three replicas) places a new stream or consumer through
 * its leaders, which can take longer than a request's 5 s while many services start at once or a
 * leader is being elected. The steps are safe to repeat (each looks before it creates).
 */
export async function whileJetStreamBusy<T>(step: () => Promise<T>, what: string, logger?: Logger, settling: readonly number[] = []): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      const code = apiErrorCode(err);
      const busy =
        err instanceof NatsError &&
        (err.code === ErrorCode.Timeout || err.code === ErrorCode.JetStreamNotEnabled || code === JETSTREAM_UNAVAILABLE || settling.includes(code ?? 0));
      if (!busy || attempt >= JETSTREAM_BUSY_ATTEMPTS) throw err;
      logger?.warn({ err, attempt }, `JetStream busy setting up ${what}; trying again`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 250 * attempt)));
    }
  }
}

async function ensureStreamOnce(bus: Bus, name: string, subjects: string[], logger?: Logger): Promise<void> {
  const config: Partial<StreamConfig> & { name: string } = {
    name,
    subjects,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(30 * 24 * 3600_000),
    num_replicas: streamReplicas(),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const info = await bus.jsm.streams.info(name);
      if (sameSettings(info.config, config)) return;
      await bus.jsm.streams.update(name, config).catch((err: unknown) => {
        if (!isPermissionError(err)) throw err;
        logger?.info({ stream: name }, 'stream settings differ from the kit’s; its owner updates them');
      });
      return;
    } catch (err) {
      if (apiErrorCode(err) !== STREAM_NOT_FOUND) throw err;
    }
    try {
      await bus.jsm.streams.add(config);
      return;
    } catch (err) {
      // Created just now by another replica or service: look again.
      if (apiErrorCode(err) !== STREAM_NAME_IN_USE || attempt > 2) throw err;
    }
  }
}

/** W3C trace context of the active span, for message headers and stored outbox entries. */
export function currentTraceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

function toMsgHeaders(values: Record<string, string>): MsgHdrs {
  const h = headers();
  for (const [k, v] of Object.entries(values)) h.set(k, v);
  return h;
}

function fromMsgHeaders(h: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of h?.keys() ?? []) out[k.toLowerCase()] = h!.get(k);
  return out;
}

const messagingAttributes = (subject: string, eventId?: string) => ({
  'messaging.system': 'nats',
  'messaging.destination.name': subject,
  ...(eventId && { 'messaging.message.id': eventId }),
});

/**
 * Publishes an event with its id as message id: JetStream drops a re-publish within the window.
 * A producer span (`publish <subject>`) covers it, a child of `parent` (W3C trace headers: the
 * outbox relay passes the ones stored with the entry) or else of the active span; the message
 * carries the producer span's context, so the consumers' spans are its children.
 */
export async function publishEvent(bus: Bus, event: EventEnvelope, parent?: Record<string, string>) {
  const from = parent ? propagation.extract(ROOT_CONTEXT, parent) : context.active();
  const span = tracer.startSpan(`publish ${event.type}`, { kind: SpanKind.PRODUCER, attributes: { ...messagingAttributes(event.type, event.id), 'messaging.operation.type': 'send' } }, from);
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(from, span), carrier);
  try {
    return await bus.js.publish(event.type, codec.encode(event), { msgID: event.id, headers: toMsgHeaders(carrier) });
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

/** Builds a validated event for a subject of the registry. */
export function createEvent<R extends EventRegistry, S extends keyof R & string>(
  registry: R,
  type: S,
  payload: z.input<R[S]>,
): EventEnvelope<z.output<R[S]>> {
  const schema = registry[type]!;
  return { id: crypto.randomUUID(), type, schemaVersion: schemaVersionOf(schema), occurredAt: now().toISOString(), payload: schema.parse(payload) as z.output<R[S]> };
}

/** Thrown by a handler for an event it can never process: no retry, straight to the dead-letter subject. */
export class PermanentError extends Error {}

export interface ConsumerOptions<R extends EventRegistry, S extends keyof R & string> {
  /** Durable consumer name, unique per service and purpose, e.g. `listing-user-projection`. */
  durable: string;
  registry: R;
  /** Subjects of one stream. */
  subjects: readonly S[];
  handler: (event: { [K in S]: EventEnvelope<z.output<R[K]>> & { type: K } }[S], msg: JsMsg) => Promise<void>;
  /** Where handled event ids are remembered, so a redelivery changes nothing twice. */
  db: Connection;
  logger: Logger;
  concurrency?: number;
  /** Handler attempts (failures, or owners that died mid-handler) before a message is parked. */
  maxDeliver?: number;
  /** Delay before a failed attempt is tried again, by attempt number (1 for the first). */
  retryDelayMs?: (attempt: number) => number;
  /**
   * How long a message and its claim may go without a sign of life before another delivery takes
   * them over; a running handler renews both every third of it. Default 30 s (small in tests).
   */
  ackWaitMs?: number;
  /** A copy waiting for a claim that another live handler holds longer than this is parked. Default 10 min. */
  maxBusyMs?: number;
}

export type { Worker };

interface Claim {
  _id: string;
  state: 'processing' | 'released' | 'done';
  /** Random per handling attempt: only the owner renews, completes or releases the claim. */
  owner?: string;
  /** The owner's last sign of life; the completion time once done. */
  at: Date;
  /** When the current owner took the claim. */
  since?: Date;
  /** Handler runs started so far. */
  attempts?: number;
}
type ConsumedEvents = mongo.Collection<Claim>;
type ClaimResult = { kind: 'mine'; attempts: number } | { kind: 'done' } | { kind: 'busy'; at: Date; since: Date };

const DEFAULT_ACK_WAIT_MS = 30_000;
const DEFAULT_MAX_BUSY_MS = 10 * 60_000;
/** Far beyond the duplicate window and every redelivery; after this a handled event id is dropped. */
export const CLAIM_RETENTION_MS = 7 * 24 * 3600_000;
const CLAIM_PAGE = 100;

/**
 * Forgets handled events older than `before` (no TTL indexes on FerretDB): one read finds them,
 * then they go a page of ids at a time (an `_id` lookup, with the same condition), the round
 * pacing itself between pages. Never one write over the whole collection: it would hold the
 * local store's write turn for a scan. Answers how many went.
 */
export async function forgetHandledEvents(db: Connection, before: Date, round?: Round, pageSize = CLAIM_PAGE): Promise<number> {
  const consumed: ConsumedEvents = db.collection('consumed_events');
  const expired = { state: 'done' as const, at: { $lt: before } };
  let forgotten = 0;
  let page: string[] = [];
  const flush = async () => {
    forgotten += (await consumed.deleteMany({ _id: { $in: page }, ...expired })).deletedCount;
    page = [];
    await round?.pace();
  };
  for await (const { _id } of consumed.find(expired, { projection: { _id: 1 } })) {
    if (round?.stopped) break;
    page.push(_id);
    if (page.length >= pageSize) await flush();
  }
  if (page.length) await flush();
  return forgotten;
}

/** One clean-up job per store connection (one per service process), however many consumers it runs. */
const claimCleanups = new WeakMap<Connection, { job: Periodic<number>; users: number }>();

/** The claim clean-up of a service's store: hourly, paced to at most a tenth of the time. */
export function startClaimCleanup(db: Connection, logger: Logger, intervalMs = 3600_000): Periodic<number> {
  return startPeriodic({
    intervalMs,
    restFactor: 9,
    work: (round) => forgetHandledEvents(db, new Date(nowMs() - CLAIM_RETENTION_MS), round),
    logger,
    what: 'forgetting handled events',
  });
}

/** Joins (or starts) the connection's claim clean-up; the answer leaves it (the last one stops it). */
function joinClaimCleanup(db: Connection, logger: Logger): () => Promise<void> {
  let shared = claimCleanups.get(db);
  if (!shared) claimCleanups.set(db, (shared = { job: startClaimCleanup(db, logger), users: 0 }));
  shared.users++;
  let left = false;
  return async () => {
    if (left) return;
    left = true;
    if (--shared.users > 0) return;
    claimCleanups.delete(db);
    await shared.job.stop();
  };
}

/** Whether a connection runs a claim clean-up now, and for how many consumers (tests). */
export const claimCleanupUsers = (db: Connection): number => claimCleanups.get(db)?.users ?? 0;

/**
 * Claims an event for one handling attempt. The first delivery inserts the claim atomically; a
 * later one takes it over only when it was released by a failed attempt or its owner stopped
 * renewing it for an ack wait (it died). So two deliveries of one event never run at once.
 */
async function claimEvent(consumed: ConsumedEvents, key: string, owner: string, ackWaitMs: number): Promise<ClaimResult> {
  const at = now();
  try {
    const inserted = await consumed.updateOne(
      { _id: key },
      { $setOnInsert: { state: 'processing', owner, at, since: at, attempts: 1 } },
      { upsert: true },
    );
    if (inserted.upsertedCount === 1) return { kind: 'mine', attempts: 1 };
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  const existing = await consumed.findOne({ _id: key });
  if (existing?.state === 'done') return { kind: 'done' };
  const stale = new Date(at.getTime() - ackWaitMs);
  if (existing?.state === 'processing' && existing.at >= stale) return { kind: 'busy', at: existing.at, since: existing.since ?? existing.at };
  const taken = await consumed.findOneAndUpdate(
    { _id: key, $or: [{ state: 'released' }, { state: 'processing', at: { $lt: stale } }] },
    { $set: { state: 'processing', owner, at, since: at }, $inc: { attempts: 1 } },
    { returnDocument: 'after' },
  );
  if (taken) return { kind: 'mine', attempts: taken.attempts ?? 1 };
  // Another delivery got there first, or the claim vanished (parked): look again shortly.
  return { kind: 'busy', at: stale, since: existing?.since ?? at };
}

const defaultRetryDelay = (attempt: number) => Math.min(30_000, 500 * 2 ** (attempt - 1));

const CONSUMER_NOT_FOUND = 10014;
const CONSUMER_EXISTS = [10013, 10105, 10148];
/**
 * What a clustered JetStream answers for a while when two replicas of a service create the same
 * durable at once: both proposals reach the meta leader, the second replaces the first's group,
 * and the consumer is briefly missing or "already exists" on the node asked (a CI run: auth-2
 * exited with 'consumer not found' right after ensuring it). The steps look before they act, so
 * they are run again.
 */
const CONSUMER_SETTLING = [CONSUMER_NOT_FOUND, ...CONSUMER_EXISTS];
const apiErrorCode = (err: unknown) => (err instanceof NatsError ? err.api_error?.err_code : undefined);

const filtersOf = (c: Partial<ConsumerConfig>) => [...(c.filter_subjects ?? (c.filter_subject ? [c.filter_subject] : []))].sort().join(' ');

/**
 * Creates a durable pull consumer or brings an existing one to `config`: NATS 2.12 refuses a
 * create whose config differs from the consumer's. What the server cannot update (ack policy,
 * push instead of pull) is deleted and created again, resuming after the last acknowledged message.
 */
export async function ensureConsumer(bus: Bus, stream: string, config: Partial<ConsumerConfig> & { durable_name: string }, logger: Logger): Promise<void> {
  const durable = config.durable_name;
  const info = async () =>
    bus.jsm.consumers.info(stream, durable).catch((err: unknown) => {
      if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return undefined;
      throw err;
    });
  let current = await info();
  if (!current) {
    try {
      await bus.jsm.consumers.add(stream, config);
      return;
    } catch (err) {
      // A replica starting at the same moment created it first.
      if (!CONSUMER_EXISTS.includes(apiErrorCode(err) ?? 0) || !(current = await info())) throw err;
    }
  }
  const have = current.config;
  if (have.ack_policy === (config.ack_policy ?? have.ack_policy) && !have.deliver_subject) {
    const same =
      filtersOf(have) === filtersOf(config) &&
      have.ack_wait === config.ack_wait &&
      have.max_deliver === config.max_deliver &&
      have.max_ack_pending === config.max_ack_pending;
    if (same) return;
    try {
      await bus.jsm.consumers.update(stream, durable, {
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
        max_ack_pending: config.max_ack_pending,
        filter_subjects: config.filter_subjects,
        filter_subject: undefined,
      } as Partial<ConsumerUpdateConfig>);
      logger.info({ durable, stream }, 'consumer settings updated');
      return;
    } catch (err) {
      logger.warn({ err, durable, stream }, 'consumer settings cannot be updated in place');
    }
  }
  const from = current.ack_floor.stream_seq + 1;
  await bus.jsm.consumers.delete(stream, durable);
  await bus.jsm.consumers.add(stream, { ...config, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from });
  logger.warn({ durable, stream, from }, 'consumer recreated with changed settings; resuming after its last acknowledged message');
}

/** A stream read from a position of its own (see followStream); ends when closed. */
export interface StreamFeed extends AsyncIterable<JsMsg> {
  close(): Promise<void>;
}

/**
 * Reads a stream from a position, nothing durable nothing shared (a replica's read model, a
 * cache): an ephemeral ordered consumer that JetStream pushes to this connection's inbox; the
 * client makes it again after a gap or missed heartbeats, from the next sequence. Pushed rather
 * than pulled, so a service needs no right to pull from consumers it does not own by name (its
 * NATS user may create unnamed consumers on the streams it follows, see the contracts' nats.ts).
 */
export async function followStream(
  bus: Bus,
  stream: string,
  options: { filterSubjects: readonly string[]; startSeq?: number; startTime?: string; headersOnly?: boolean },
): Promise<StreamFeed> {
  const subscribe = (from: { startSeq?: number; startTime?: string }) => {
    const opts = consumerOpts();
    opts.orderedConsumer();
    opts.bindStream(stream);
    for (const subject of options.filterSubjects) opts.filterSubject(subject);
    if (from.startTime) opts.startTime(new Date(from.startTime));
    else opts.startSequence(Math.max(1, from.startSeq ?? 1));
    if (options.headersOnly) opts.headersOnly();
    return bus.js.subscribe(options.filterSubjects[0]!, opts);
  };
  let sub = await subscribe(options);
  let closing = false;
  /** The stream sequence after the last message handed on: where a new subscription goes on. */
  let next: number | undefined;
  // Each message's arrival is a consumer span (`receive <subject>`) in the publisher's trace: what
  // the reader then does with it runs in its own loop, outside any span the kit could hold open.
  async function* received() {
    for (;;) {
      try {
        for await (const msg of sub) {
          next = msg.seq + 1;
          const parent = propagation.extract(ROOT_CONTEXT, fromMsgHeaders(msg.headers));
          if (trace.getSpanContext(parent)) {
            tracer.startSpan(`receive ${msg.subject}`, { kind: SpanKind.CONSUMER, attributes: { ...messagingAttributes(msg.subject), 'messaging.operation.type': 'receive', 'messaging.destination.subscription.name': stream } }, parent).end();
          }
          yield msg;
        }
        return;
      } catch (err) {
        // After NATS restarts, nats.js recreates an ordered consumer by sequence but keeps the start
        // time it was made with, which the server refuses (10094), and ends the feed with this
        // error. A new subscription from the next sequence goes on where it stopped.
        if (closing || !isRecreateFailure(err)) throw err;
        if (!sub.isClosed()) sub.unsubscribe();
        sub = await subscribe(next === undefined ? options : { startSeq: next });
      }
    }
  }
  return {
    [Symbol.asyncIterator]: received,
    async close() {
      closing = true;
      if (!sub.isClosed()) sub.unsubscribe();
      await sub.closed;
    },
  };
}

const isRecreateFailure = (err: unknown) => err instanceof NatsError && err.message.startsWith('unable to recreate ordered consumer');

/** Messages parked on the dead-letter stream for one durable. */
export async function deadLetterCount(bus: Bus, durable: string): Promise<number> {
  const subject = deadLetterSubject(durable);
  const info = await bus.jsm.streams.info(DEAD_LETTER_STREAM, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

/**
 * A durable pull consumer with explicit ack and bounded concurrency. Each event is handled once
 * per durable (claimed in `consumed_events`, owner-checked). Nothing leaves without an ack after
 * success or an entry on `deadletter.<service>.<durable>`: JetStream redelivers without limit and
 * the kit counts handler attempts itself, so a copy waiting for a busy claim is never dropped.
 * Failures are nak'ed with a growing delay; malformed messages, PermanentErrors, messages out of
 * attempts and copies that waited longer than `maxBusyMs` are parked.
 */
export async function consume<R extends EventRegistry, S extends keyof R & string>(
  bus: Bus,
  options: ConsumerOptions<R, S>,
): Promise<Worker> {
  const { durable, registry, subjects, db, logger } = options;
  const concurrency = options.concurrency ?? 4;
  const maxDeliver = options.maxDeliver ?? 5;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  const ackWaitMs = options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
  const maxBusyMs = options.maxBusyMs ?? DEFAULT_MAX_BUSY_MS;
  const stream = streamOf(subjects[0]!);
  if (subjects.some((s) => streamOf(s) !== stream)) throw new Error(`consumer ${durable}: subjects span several streams`);

  await ensureStream(bus, stream, undefined, logger);
  await ensureStream(bus, DEAD_LETTER_STREAM, undefined, logger);
  const replay = replaySubject(stream, durable);
  const ensured = () => ensureConsumer(
    bus,
    stream,
    {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      // Its replayed dead letters come on a subject of their own, so no other durable sees them.
      filter_subjects: [...subjects, replay],
      // Unlimited: JetStream would otherwise drop a message silently; the kit counts attempts.
      max_deliver: -1,
      ack_wait: nanos(ackWaitMs),
      max_ack_pending: concurrency * 4,
    },
    logger,
  );
  await whileJetStreamBusy(ensured, `consumer ${durable}`, logger, CONSUMER_SETTLING);
  const consumed: ConsumedEvents = db.collection('consumed_events');
  const removeGauge = addGaugeProducer('ruilplein.deadletter.messages', async () => [{ value: await deadLetterCount(bus, durable), attributes: { durable } }]);

  const deadLetter = async (msg: JsMsg, why: string, detail: { event?: EventEnvelope; attempts?: number } = {}) => {
    // Header values are single lines; zod's messages are not.
    const reason = why.replace(/\s+/g, ' ').slice(0, 500);
    const H = DEAD_LETTER_HEADERS;
    const before = fromMsgHeaders(msg.headers);
    // A replayed copy keeps naming the subject the event was first published to.
    const original = msg.subject === replay ? (before[H.originalSubject] ?? detail.event?.type ?? msg.subject) : msg.subject;
    const h = toMsgHeaders({
      ...before,
      [H.originalSubject]: original,
      [H.reason]: reason,
      [H.deliveries]: String(msg.info.deliveryCount),
      [H.durable]: durable,
      ...(detail.attempts !== undefined && { [H.attempts]: String(detail.attempts) }),
      ...(detail.event && { [H.eventId]: detail.event.id, [H.eventType]: detail.event.type }),
    });
    await bus.js.publish(deadLetterSubject(durable), msg.data, { headers: h, msgID: `${durable}:${msg.info.streamSequence}` });
    msg.term(reason.slice(0, 200));
    logger.warn({ durable, subject: original, eventId: detail.event?.id, reason }, 'event parked on dead-letter subject');
  };

  /** How one handling attempt ended, for the consumer's metrics. */
  type Outcome = 'handled' | 'duplicate' | 'busy' | 'retry' | 'parked';
  const attempt = async (msg: JsMsg, event: EventEnvelope, key: string): Promise<Outcome> => {
    const owner = crypto.randomUUID();
    const claim = await claimEvent(consumed, key, owner, ackWaitMs);
    if (claim.kind === 'done') {
      msg.ack();
      return 'duplicate';
    }
    if (claim.kind === 'busy') {
      const held = nowMs() - claim.since.getTime();
      if (held > maxBusyMs) {
        await deadLetter(msg, `claim held by another handler for ${Math.round(held / 1000)} s`, { event });
        return 'parked';
      }
      // Come back when the holder would have to have renewed its claim: then it finished or died.
      msg.nak(Math.max(50, claim.at.getTime() + ackWaitMs - nowMs()) + Math.min(1000, ackWaitMs / 10));
      return 'busy';
    }
    const mine = { _id: key, owner };
    const park = async (reason: string, attempts: number): Promise<Outcome> => {
      await deadLetter(msg, reason, { event, attempts });
      // Gone, so a replay from the dead-letter stream runs the handler afresh.
      await consumed.deleteOne(mine);
      return 'parked';
    };
    // Every earlier owner died mid-handler without releasing: the handler may be what kills them.
    if (claim.attempts > maxDeliver) return park(`handler did not finish in ${maxDeliver} attempts`, claim.attempts - 1);

    const renew = setInterval(() => {
      msg.working();
      consumed
        .updateOne({ ...mine, state: 'processing' }, { $set: { at: now() } })
        .then((r) => r.matchedCount === 0 && logger.warn({ durable, eventId: event.id }, 'claim taken over while its handler still runs'))
        .catch((err: unknown) => logger.warn({ err, durable, eventId: event.id }, 'could not renew claim'));
    }, ackWaitMs / 3);
    let failure: Error | undefined;
    try {
      await options.handler(event as Parameters<typeof options.handler>[0], msg);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    } finally {
      clearInterval(renew);
    }
    if (!failure) {
      const done = await consumed.updateOne(mine, { $set: { state: 'done', at: now() }, $unset: { owner: '' } });
      if (done.matchedCount === 0) logger.warn({ durable, eventId: event.id }, 'handler finished after its claim was taken over');
      msg.ack();
      return 'handled';
    }
    trace.getActiveSpan()?.recordException(failure);
    if (failure instanceof PermanentError || claim.attempts >= maxDeliver) return park(failure.message, claim.attempts);
    await consumed.updateOne({ ...mine, state: 'processing' }, { $set: { state: 'released', at: now() }, $unset: { owner: '' } });
    logger.warn({ err: failure, durable, eventId: event.id, attempt: claim.attempts }, 'event handler failed, will retry');
    msg.nak(retryDelay(claim.attempts));
    return 'retry';
  };

  /** `messaging.process.duration`: the rate, the outcomes (errors: retry, parked, failed, malformed) and the time per consumer. */
  const recordConsumed = (subject: string, outcome: string, ms: number) =>
    recordDuration('messaging.process.duration', ms / 1000, {
      'messaging.system': 'nats',
      'messaging.consumer.group.name': durable,
      'messaging.destination.name': subject,
      'ruilplein.outcome': outcome,
      ...(outcome !== 'handled' && outcome !== 'duplicate' && outcome !== 'busy' && { 'error.type': outcome }),
    });

  const handle = async (msg: JsMsg) => {
    let event: EventEnvelope;
    try {
      const envelope = EventEnvelopeSchema.parse(msg.json());
      const schema = registry[envelope.type as S];
      // A replay carries one of this consumer's subjects; anything else, its own subject.
      const fits = msg.subject === replay ? subjects.includes(envelope.type as S) : envelope.type === msg.subject;
      if (!schema || !fits) throw new Error(`unexpected type ${envelope.type} on ${msg.subject}`);
      event = { ...envelope, payload: schema.parse(envelope.payload) };
    } catch (err) {
      const detail = err instanceof ZodError ? err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (err as Error).message;
      await deadLetter(msg, `malformed event: ${detail}`);
      return recordConsumed(msg.subject, 'malformed', 0);
    }
    // A child of the publish span the message's headers name (the outbox relay's, for events written
    // with a state change), so one trace runs from the request through NATS to every consumer.
    const parent = propagation.extract(ROOT_CONTEXT, fromMsgHeaders(msg.headers));
    const span = tracer.startSpan(
      `consume ${event.type}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: { ...messagingAttributes(msg.subject, event.id), 'messaging.consumer.group.name': durable, 'messaging.operation.type': 'process', 'messaging.nats.delivery_count': msg.info.deliveryCount },
      },
      parent,
    );
    const started = performance.now();
    let outcome: Outcome | 'failed' = 'failed';
    await context.with(trace.setSpan(parent, span), async () => {
      try {
        outcome = await attempt(msg, event, `${durable}:${event.id}`);
      } catch (err) {
        // The store or NATS failed around the handler: nothing was decided, so it comes back.
        span.recordException(err as Error);
        logger.warn({ err, durable, eventId: event.id, delivery: msg.info.deliveryCount }, 'event handling failed, will retry');
        msg.nak(retryDelay(msg.info.deliveryCount));
      } finally {
        span.setAttribute('ruilplein.outcome', outcome);
        if (outcome === 'retry' || outcome === 'parked' || outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        recordConsumed(msg.subject, outcome, performance.now() - started);
      }
    });
  };

  const consumer = await whileJetStreamBusy(() => bus.js.consumers.get(stream, durable), `consumer ${durable}`, logger, CONSUMER_SETTLING);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: concurrency });
  const inflight = new Set<Promise<void>>();
  const loop = (async () => {
    for await (const msg of messages) {
      const job: Promise<void> = handle(msg)
        .catch((err) => logger.error({ err, durable }, 'event handling crashed'))
        .finally(() => inflight.delete(job));
      inflight.add(job);
      if (inflight.size >= concurrency) await Promise.race(inflight);
    }
  })();
  const leaveCleanup = joinClaimCleanup(db, logger);
  return {
    async stop() {
      removeGauge();
      await messages.close();
      await loop;
      await Promise.all(inflight);
      await leaveCleanup();
    },
  };
}

type Reply<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** Answers a request/reply query; a queue group spreads requests over the service's replicas. */
export function serveQuery<Q extends QueryDef>(
  bus: Bus,
  service: string,
  query: Q,
  handler: (request: z.output<Q['request']>) => Promise<z.input<Q['response']>>,
  logger: Logger,
): Worker {
  const sub = bus.nc.subscribe(query.subject, {
    queue: service,
    callback: (_err, msg) => {
      const parent = propagation.extract(ROOT_CONTEXT, fromMsgHeaders(msg.headers));
      const span = tracer.startSpan(`process ${query.subject}`, { kind: SpanKind.SERVER, attributes: { ...messagingAttributes(query.subject), 'messaging.operation.type': 'process' } }, parent);
      void context.with(trace.setSpan(parent, span), async () => {
        let reply: Reply<unknown>;
        const parsed = query.request.safeParse(msg.data.length ? codec.decode(msg.data) : undefined);
        if (!parsed.success) {
          reply = { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? 'ongeldige vraag' };
        } else {
          try {
            reply = { ok: true, data: await handler(parsed.data as z.output<Q['request']>) };
          } catch (err) {
            logger.error({ err, subject: query.subject }, 'query failed');
            reply = err instanceof HttpError ? { ok: false, status: err.status, message: err.message } : { ok: false, status: 500, message: 'interne fout' };
          }
        }
        if (!reply.ok && reply.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        msg.respond(codec.encode(reply));
      });
    },
  });
  return { stop: async () => sub.drain() };
}

/** Asks another service; down or slow answers become a 503/504 HttpError with a Dutch message. */
export async function requestQuery<Q extends QueryDef>(
  bus: Bus,
  query: Q,
  request: z.input<Q['request']>,
  timeoutMs = 2000,
): Promise<z.output<Q['response']>> {
  let answer;
  const span = tracer.startSpan(`request ${query.subject}`, { kind: SpanKind.CLIENT, attributes: messagingAttributes(query.subject) });
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  try {
    answer = await bus.nc.request(query.subject, codec.encode(query.request.parse(request)), { timeout: timeoutMs, headers: toMsgHeaders(carrier) });
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    if (err instanceof NatsError && err.code === ErrorCode.NoResponders) {
      throw new HttpError(503, 'Een onderdeel van Ruilplein is tijdelijk niet bereikbaar. Probeer het later opnieuw.');
    }
    if (err instanceof NatsError && err.code === ErrorCode.Timeout) {
      throw new HttpError(504, 'Een onderdeel van Ruilplein reageert niet op tijd. Probeer het later opnieuw.');
    }
    throw err;
  } finally {
    span.end();
  }
  const reply = codec.decode(answer.data) as Reply<unknown>;
  if (!reply.ok) throw new HttpError(reply.status, reply.message);
  return query.response.parse(reply.data) as z.output<Q['response']>;
}
