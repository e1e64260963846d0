import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { EventEnvelopeSchema, streamOf, type EventEnvelope, type EventRegistry, type QueryDef } from '@ruilplein/contracts';
import type { Connection, mongo } from 'mongoose';
import {
  AckPolicy,
  connect,
  ErrorCode,
  headers,
  JSONCodec,
  nanos,
  NatsError,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type MsgHdrs,
  type NatsConnection,
  type StreamConfig,
} from 'nats';
import { ZodError, type z } from 'zod';
import { HttpError } from './errors.ts';
import type { Logger } from './logger.ts';

const codec = JSONCodec();
const tracer = trace.getTracer('@ruilplein/service-kit');

/** JetStream refuses a second message with the same id inside this window (outbox re-publishes). */
const DUPLICATE_WINDOW_MS = 10 * 60_000;
export const DEAD_LETTER_STREAM = 'deadletter';

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
}

export async function connectBus(url: string, name: string): Promise<Bus> {
  const nc = await connect({ servers: url, name, maxReconnectAttempts: -1 });
  return { nc, js: nc.jetstream(), jsm: await nc.jetstreamManager() };
}

/** Creates or updates a stream; one per publishing service, holding `<service>.>`. */
export async function ensureStream(bus: Bus, name: string, subjects = [`${name}.>`]): Promise<void> {
  const config: Partial<StreamConfig> & { name: string } = {
    name,
    subjects,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(30 * 24 * 3600_000),
  };
  try {
    await bus.jsm.streams.info(name);
    await bus.jsm.streams.update(name, config);
  } catch (err) {
    if (!(err instanceof NatsError) || err.api_error?.err_code !== 10059) throw err;
    await bus.jsm.streams.add(config);
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

/** Publishes an event with its id as message id: JetStream drops a re-publish within the window. */
export async function publishEvent(bus: Bus, event: EventEnvelope, traceHeaders: Record<string, string> = currentTraceHeaders()) {
  return bus.js.publish(event.type, codec.encode(event), { msgID: event.id, headers: toMsgHeaders(traceHeaders) });
}

/** Builds a validated event for a subject of the registry. */
export function createEvent<R extends EventRegistry, S extends keyof R & string>(
  registry: R,
  type: S,
  payload: z.input<R[S]>,
): EventEnvelope<z.output<R[S]>> {
  return { id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), payload: registry[type]!.parse(payload) as z.output<R[S]> };
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
  /** Deliveries before a failing message is parked on the dead-letter subject. */
  maxDeliver?: number;
  retryDelayMs?: (delivery: number) => number;
}

export interface Worker {
  stop(): Promise<void>;
}

type ConsumedEvents = mongo.Collection<{ _id: string; state: 'processing' | 'done'; at: Date }>;

/** A claim older than the ack wait is taken over: by then its holder died without finishing. */
const ACK_WAIT_MS = 30_000;
/** Far beyond the duplicate window and every redelivery; after this a handled event id is dropped. */
const CLAIM_RETENTION_MS = 7 * 24 * 3600_000;

/**
 * Claims an event for handling with one atomic insert, so two deliveries of the same event
 * (a redelivery racing the original, or a duplicate publish) never both run the handler.
 */
async function claimEvent(consumed: ConsumedEvents, key: string): Promise<'mine' | 'done' | 'busy'> {
  try {
    const inserted = await consumed.updateOne(
      { _id: key },
      { $setOnInsert: { state: 'processing', at: new Date() } },
      { upsert: true },
    );
    if (inserted.upsertedCount === 1) return 'mine';
  } catch (err) {
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  const existing = await consumed.findOne({ _id: key });
  if (!existing) return 'busy';
  if (existing.state === 'done') return 'done';
  const takeover = await consumed.updateOne(
    { _id: key, state: 'processing', at: { $lt: new Date(Date.now() - ACK_WAIT_MS) } },
    { $set: { at: new Date() } },
  );
  return takeover.modifiedCount === 1 ? 'mine' : 'busy';
}

const defaultRetryDelay = (delivery: number) => Math.min(30_000, 500 * 2 ** (delivery - 1));

/**
 * A durable pull consumer with explicit ack and bounded concurrency. Each event is handled once
 * per durable (claimed in `consumed_events`); transient failures are nak'ed with a growing delay;
 * malformed messages, PermanentErrors and messages out of deliveries go to `deadletter.<durable>`.
 */
export async function consume<R extends EventRegistry, S extends keyof R & string>(
  bus: Bus,
  options: ConsumerOptions<R, S>,
): Promise<Worker> {
  const { durable, registry, subjects, db, logger } = options;
  const concurrency = options.concurrency ?? 4;
  const maxDeliver = options.maxDeliver ?? 5;
  const retryDelay = options.retryDelayMs ?? defaultRetryDelay;
  const stream = streamOf(subjects[0]!);
  if (subjects.some((s) => streamOf(s) !== stream)) throw new Error(`consumer ${durable}: subjects span several streams`);

  await ensureStream(bus, stream);
  await ensureStream(bus, DEAD_LETTER_STREAM);
  await bus.jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    filter_subjects: [...subjects],
    max_deliver: maxDeliver,
    ack_wait: nanos(ACK_WAIT_MS),
    max_ack_pending: concurrency * 4,
  });
  const consumed: ConsumedEvents = db.collection('consumed_events');
  // No TTL indexes on FerretDB: forget handled events once no duplicate can still arrive.
  const forget = () => consumed.deleteMany({ state: 'done', at: { $lt: new Date(Date.now() - CLAIM_RETENTION_MS) } }).catch(() => undefined);
  const cleanup = setInterval(forget, 3600_000);

  const deadLetter = async (msg: JsMsg, why: string) => {
    // Header values are single lines; zod's messages are not.
    const reason = why.replace(/\s+/g, ' ').slice(0, 500);
    const h = toMsgHeaders({
      ...fromMsgHeaders(msg.headers),
      'ruilplein-original-subject': msg.subject,
      'ruilplein-reason': reason,
      'ruilplein-deliveries': String(msg.info.deliveryCount),
    });
    await bus.js.publish(`${DEAD_LETTER_STREAM}.${durable}`, msg.data, { headers: h, msgID: `${durable}:${msg.info.streamSequence}` });
    msg.term(reason.slice(0, 200));
    logger.warn({ durable, subject: msg.subject, reason }, 'event parked on dead-letter subject');
  };

  const handle = async (msg: JsMsg) => {
    let event: EventEnvelope;
    try {
      const envelope = EventEnvelopeSchema.parse(msg.json());
      const schema = registry[envelope.type as S];
      if (!schema || envelope.type !== msg.subject) throw new Error(`unexpected type ${envelope.type} on ${msg.subject}`);
      event = { ...envelope, payload: schema.parse(envelope.payload) };
    } catch (err) {
      const detail = err instanceof ZodError ? err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (err as Error).message;
      return deadLetter(msg, `malformed event: ${detail}`);
    }
    const key = `${durable}:${event.id}`;
    const parent = propagation.extract(context.active(), fromMsgHeaders(msg.headers));
    const span = tracer.startSpan(`consume ${msg.subject}`, { kind: SpanKind.CONSUMER }, parent);
    await context.with(trace.setSpan(parent, span), async () => {
      try {
        const claim = await claimEvent(consumed, key);
        if (claim === 'done') return msg.ack();
        // Another replica (or a concurrent duplicate) is on it: look again after a while.
        if (claim === 'busy') return msg.nak(retryDelay(msg.info.deliveryCount));
        try {
          await options.handler(event as Parameters<typeof options.handler>[0], msg);
        } catch (err) {
          await consumed.deleteOne({ _id: key, state: 'processing' });
          throw err;
        }
        await consumed.updateOne({ _id: key }, { $set: { state: 'done', at: new Date() } });
        msg.ack();
      } catch (err) {
        span.recordException(err as Error);
        if (err instanceof PermanentError || msg.info.deliveryCount >= maxDeliver) {
          await deadLetter(msg, (err as Error).message);
        } else {
          logger.warn({ err, durable, eventId: event.id, delivery: msg.info.deliveryCount }, 'event handler failed, will retry');
          msg.nak(retryDelay(msg.info.deliveryCount));
        }
      } finally {
        span.end();
      }
    });
  };

  const consumer = await bus.js.consumers.get(stream, durable);
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
  return {
    async stop() {
      clearInterval(cleanup);
      await messages.close();
      await loop;
      await Promise.all(inflight);
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
      const parent = propagation.extract(context.active(), fromMsgHeaders(msg.headers));
      void context.with(parent, async () => {
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
  try {
    answer = await bus.nc.request(query.subject, codec.encode(query.request.parse(request)), {
      timeout: timeoutMs,
      headers: toMsgHeaders(currentTraceHeaders()),
    });
  } catch (err) {
    if (err instanceof NatsError && err.code === ErrorCode.NoResponders) {
      throw new HttpError(503, 'Een onderdeel van Ruilplein is tijdelijk niet bereikbaar. Probeer het later opnieuw.');
    }
    if (err instanceof NatsError && err.code === ErrorCode.Timeout) {
      throw new HttpError(504, 'Een onderdeel van Ruilplein reageert niet op tijd. Probeer het later opnieuw.');
    }
    throw err;
  }
  const reply = codec.decode(answer.data) as Reply<unknown>;
  if (!reply.ok) throw new HttpError(reply.status, reply.message);
  return query.response.parse(reply.data) as z.output<Q['response']>;
}
