import { context, trace } from '@opentelemetry/api';
import { defineQuery } from '@ruilplein/contracts';
import type { JsMsg } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  consume,
  createEvent,
  DEAD_LETTER_STREAM,
  deadLetterSubject,
  ensureStream,
  HttpError,
  PermanentError,
  publishEvent,
  requestQuery,
  serveQuery,
  startTelemetry,
} from '../src/index.ts';
import { silentLogger } from '../src/testing.ts';
import { sleep, testInfra, waitFor } from './helpers.ts';

const registry = {
  'kitn.thing.counted': z.object({ n: z.number() }),
  'kitn.thing.failed': z.object({ n: z.number() }),
  'kitn.thing.slow': z.object({ n: z.number() }),
  'kitn.thing.traced': z.object({ n: z.number() }),
};
const logger = silentLogger();
let infra: Awaited<ReturnType<typeof testInfra>>;
let stopTelemetry: () => Promise<void>;

beforeAll(async () => {
  stopTelemetry = startTelemetry('kit-test', undefined);
  infra = await testInfra('kit-nats');
  await ensureStream(infra.bus, 'kitn');
});
afterAll(async () => {
  await infra.close();
  await stopTelemetry();
});

/** The next message parked for a durable on the dead-letter stream. */
async function deadLetters(durable: string, count: number): Promise<JsMsg[]> {
  const consumer = await infra.bus.js.consumers.get(DEAD_LETTER_STREAM, { filterSubjects: [deadLetterSubject(durable)] });
  const out: JsMsg[] = [];
  while (out.length < count) {
    const msg = await consumer.next({ expires: 5000 });
    if (!msg) throw new Error(`only ${out.length} dead letters for ${durable}`);
    out.push(msg);
  }
  return out;
}

describe('consume', () => {
  it('applies a redelivered event once and retries transient failures with nak', async () => {
    const applied: number[] = [];
    const deliveries: number[] = [];
    let failOnce = true;
    const worker = await consume(infra.bus, {
      durable: 'counter',
      registry,
      subjects: ['kitn.thing.counted'],
      db: infra.db,
      logger,
      retryDelayMs: () => 50,
      handler: async (event, msg) => {
        deliveries.push(msg.info.deliveryCount);
        if (event.payload.n === 2 && failOnce) {
          failOnce = false;
          throw new Error('store briefly unreachable');
        }
        applied.push(event.payload.n);
      },
    });
    const one = createEvent(registry, 'kitn.thing.counted', { n: 1 });
    await publishEvent(infra.bus, one);
    // The same event again past JetStream's duplicate window (another message id): a redelivery.
    await infra.bus.js.publish(one.type, JSON.stringify(one), { msgID: `${one.id}-again` });
    await publishEvent(infra.bus, createEvent(registry, 'kitn.thing.counted', { n: 2 }));
    await waitFor(() => applied.length === 2);
    await sleep(300);
    await worker.stop();
    expect(applied.sort()).toEqual([1, 2]);
    expect(deliveries.filter((d) => d === 2)).toHaveLength(1); // the failed one came back once
  });

  it('parks malformed messages, permanent failures and exhausted retries on the dead-letter subject', async () => {
    let calls = 0;
    const worker = await consume(infra.bus, {
      durable: 'failing',
      registry,
      subjects: ['kitn.thing.failed'],
      db: infra.db,
      logger,
      maxDeliver: 3,
      retryDelayMs: () => 20,
      handler: async (event) => {
        calls++;
        if (event.payload.n === 1) throw new PermanentError('listing does not exist');
        throw new Error('always broken');
      },
    });
    await infra.bus.js.publish('kitn.thing.failed', new TextEncoder().encode('{not json'));
    await infra.bus.js.publish('kitn.thing.failed', JSON.stringify({ ...createEvent(registry, 'kitn.thing.failed', { n: 0 }), payload: { n: 'zero' } }));
    await publishEvent(infra.bus, createEvent(registry, 'kitn.thing.failed', { n: 1 }));
    await publishEvent(infra.bus, createEvent(registry, 'kitn.thing.failed', { n: 2 }));

    const parked = await deadLetters('failing', 4);
    await worker.stop();
    const reasons = parked.map((m) => m.headers?.get('ruilplein-reason') ?? '');
    expect(reasons.filter((r) => r.startsWith('malformed event'))).toHaveLength(2);
    expect(reasons.find((r) => r.startsWith('malformed event: n: '))).toBeDefined();
    expect(reasons).toContain('listing does not exist');
    expect(reasons).toContain('always broken');
    expect(parked.every((m) => m.headers?.get('ruilplein-original-subject') === 'kitn.thing.failed')).toBe(true);
    const exhausted = parked.find((m) => m.headers?.get('ruilplein-reason') === 'always broken')!;
    expect(exhausted.headers?.get('ruilplein-deliveries')).toBe('3');
    expect(calls).toBe(1 + 3); // the permanent failure once, the broken one maxDeliver times
  });

  it('never runs more handlers at once than its concurrency', async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    const worker = await consume(infra.bus, {
      durable: 'bounded',
      registry,
      subjects: ['kitn.thing.slow'],
      db: infra.db,
      logger,
      concurrency: 2,
      handler: async () => {
        peak = Math.max(peak, ++running);
        await sleep(80);
        running--;
        done++;
      },
    });
    for (let n = 0; n < 8; n++) await publishEvent(infra.bus, createEvent(registry, 'kitn.thing.slow', { n }));
    await waitFor(() => done === 8);
    await worker.stop();
    expect(peak).toBe(2);
  });

  it('carries the trace context from publisher to handler', async () => {
    const tracer = trace.getTracer('test');
    let seenTraceId = '';
    const worker = await consume(infra.bus, {
      durable: 'traced',
      registry,
      subjects: ['kitn.thing.traced'],
      db: infra.db,
      logger,
      handler: async () => {
        seenTraceId = trace.getActiveSpan()?.spanContext().traceId ?? '';
      },
    });
    const span = tracer.startSpan('publisher');
    await context.with(trace.setSpan(context.active(), span), () => publishEvent(infra.bus, createEvent(registry, 'kitn.thing.traced', { n: 1 })));
    span.end();
    await waitFor(() => seenTraceId !== '');
    await worker.stop();
    expect(seenTraceId).toBe(span.spanContext().traceId);
  });
});

describe('request/reply', () => {
  const double = defineQuery({ subject: 'rpc.kitn.number.double', request: z.object({ n: z.number() }), response: z.object({ n: z.number() }) });
  const slow = defineQuery({ subject: 'rpc.kitn.number.slow', request: z.object({}), response: z.object({}) });
  const nobody = defineQuery({ subject: 'rpc.kitn.number.nobody', request: z.object({}), response: z.object({}) });

  it('answers typed queries and turns bad input, absence and slowness into HTTP errors', async () => {
    const workers = [
      serveQuery(infra.bus, 'kitn', double, async ({ n }) => ({ n: n * 2 }), logger),
      serveQuery(infra.bus, 'kitn', slow, async () => sleep(1000).then(() => ({})), logger),
    ];
    expect(await requestQuery(infra.bus, double, { n: 21 })).toEqual({ n: 42 });

    const badReply = await infra.bus.nc.request(double.subject, JSON.stringify({ n: 'x' }), { timeout: 1000 });
    expect(badReply.json()).toMatchObject({ ok: false, status: 400 });

    await expect(requestQuery(infra.bus, nobody, {})).rejects.toMatchObject({ status: 503 });
    const started = Date.now();
    const err = await requestQuery(infra.bus, slow, {}, 200).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(504);
    expect(err.message).toMatch(/niet op tijd/);
    expect(Date.now() - started).toBeLessThan(900);
    for (const w of workers) await w.stop();
  });
});
