// One trace from a request through the outbox, its relay and NATS to every consumer, on the real
// test stores; spans are kept in memory, log lines are read back.
import { Writable } from 'node:stream';
import { context, metrics as metricsApi, SpanKind, trace } from '@opentelemetry/api';
import { metrics } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { defineRoute } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { consume, createApp, createEvent, createLogger, ensureStream, outboxFields, startOutboxRelay, type OutboxRelay, type Worker } from '../src/index.ts';
import { listen } from '../src/test-http.ts';
import { testInfra, waitFor } from './helpers.ts';

const registry = { 'kitt.offer.sent': z.object({ offerId: z.string() }) };
const send = defineRoute({
  service: 'trade',
  method: 'post',
  path: '/kitt/offers/:id/send',
  summary: 'send an offer',
  access: 'public',
  params: z.object({ id: z.string() }),
  response: z.object({ sent: z.boolean() }),
});

/** Reads the kit's metrics when asked (no export interval). */
class TestReader extends metrics.MetricReader {
  protected onForceFlush() {
    return Promise.resolve();
  }
  protected onShutdown() {
    return Promise.resolve();
  }
}
const reader = new TestReader();
const meters = new metrics.MeterProvider({ readers: [reader] });

const exporter = new InMemorySpanExporter();
const tracerForTest = trace.getTracer('kit-traces-test');
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
/** Every log line, parsed. */
const lines: Record<string, unknown>[] = [];
const logger = createLogger(
  'kit-traces',
  'info',
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

let infra: Awaited<ReturnType<typeof testInfra>>;
let relay: OutboxRelay;
let server: Awaited<ReturnType<typeof listen>>;
const workers: Worker[] = [];
const handled = new Map<string, string>();

beforeAll(async () => {
  provider.register();
  metricsApi.setGlobalMeterProvider(meters);
  infra = await testInfra('kit-traces');
  await ensureStream(infra.bus, 'kitt');
  relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger });
  for (const durable of ['kitt-listing', 'kitt-chat', 'kitt-notification']) {
    workers.push(
      await consume(infra.bus, {
        durable,
        registry,
        subjects: ['kitt.offer.sent'],
        db: infra.db,
        logger,
        handler: async (event) => {
          logger.info({ durable }, 'offer sent, handled');
          handled.set(durable, event.payload.offerId);
        },
      }),
    );
  }
  const app = createApp({
    service: 'test',
    logger,
    verifyToken: () => Promise.reject(new Error('no tokens here')),
    routes: { offers: { send } },
    handlers: {
      offers: {
        send: async ({ params }) => {
          await infra.db.collection<{ _id: string }>('offers').updateOne(
            { _id: params.id },
            { $set: { status: 'Pending', ...outboxFields(createEvent(registry, 'kitt.offer.sent', { offerId: params.id })) } },
            { upsert: true },
          );
          logger.info({ offerId: params.id }, 'offer written');
          relay.kick('offers', params.id);
          return { sent: true };
        },
      },
    },
  });
  server = await listen(app);
});

afterAll(async () => {
  await server.close();
  for (const worker of workers) await worker.stop();
  await relay.stop();
  await infra.close();
  await provider.shutdown();
  await meters.shutdown();
});

/** The data points of one kit histogram, by their attributes. */
async function histogram(name: string) {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []) as { attributes: Record<string, unknown>; value: { count: number } }[];
}

const one = (spans: ReadableSpan[], name: string) => {
  const found = spans.filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('a trace across the outbox and NATS', () => {
  it('links the request, the outbox relay, the publish and every consumer in one trace, and puts its ids on their log lines', async () => {
    // As the gateway would send it: its trace, its span.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const gatewaySpan = '00f067aa0ba902b7';
    const res = await fetch(`${server.url}/kitt/offers/o-1/send`, { method: 'POST', headers: { traceparent: `00-${traceId}-${gatewaySpan}-01` } });
    expect(res.status).toBe(200);
    await waitFor(() => handled.size === 3 && exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CONSUMER).length === 3);

    const spans = exporter.getFinishedSpans();
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([traceId]));
    const request = one(spans, 'POST /kitt/offers/:id/send');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(parentOf(request)).toBe(gatewaySpan);
    expect(request.attributes['http.route']).toBe('/kitt/offers/:id/send');
    // The handler's store command is a client span of the request (the driver's command monitoring).
    const written = one(
      spans.filter((s) => parentOf(s) === request.spanContext().spanId),
      'update offers',
    );
    expect(written.kind).toBe(SpanKind.CLIENT);
    expect(written.attributes).toMatchObject({ 'db.system.name': 'mongodb', 'db.collection.name': 'offers', 'db.operation.name': 'update' });
    // The relay publishes later, outside the request, from the trace context stored with the entry.
    // Its kicked pass and a full pass may both meet the entry (JetStream drops the second copy by
    // its message id), so there may be two relay spans, each with its publish.
    const relayed = spans.filter((s) => s.name === 'outbox relay kitt.offer.sent');
    expect(relayed.length).toBeGreaterThanOrEqual(1);
    for (const relay of relayed) expect(parentOf(relay)).toBe(request.spanContext().spanId);
    const publishes = spans.filter((s) => s.name === 'publish kitt.offer.sent');
    expect(publishes).toHaveLength(relayed.length);
    for (const publish of publishes) {
      expect(publish.kind).toBe(SpanKind.PRODUCER);
      expect(relayed.map((r) => r.spanContext().spanId)).toContain(parentOf(publish));
    }
    const consumers = spans.filter((s) => s.name === 'consume kitt.offer.sent');
    expect(consumers.map((s) => s.attributes['messaging.consumer.group.name']).sort()).toEqual(['kitt-chat', 'kitt-listing', 'kitt-notification']);
    for (const consumer of consumers) {
      expect(consumer.kind).toBe(SpanKind.CONSUMER);
      expect(publishes.map((p) => p.spanContext().spanId)).toContain(parentOf(consumer));
      expect(consumer.attributes['ruilplein.outcome']).toBe('handled');
    }

    // Log lines inside the request (the handler's and the request's own) and inside each handler.
    await waitFor(() => lines.some((l) => l.msg === 'request completed'));
    const writtenLine = lines.find((l) => l.msg === 'offer written');
    expect(writtenLine).toMatchObject({ trace_id: traceId, span_id: request.spanContext().spanId });
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({ trace_id: traceId, span_id: request.spanContext().spanId });
    const handledLines = lines.filter((l) => l.msg === 'offer sent, handled');
    expect(handledLines).toHaveLength(3);
    for (const line of handledLines) {
      const consumer = consumers.find((s) => s.attributes['messaging.consumer.group.name'] === line.durable)!;
      expect(line).toMatchObject({ trace_id: traceId, span_id: consumer.spanContext().spanId });
    }

    // Rate, errors and duration per route and per consumer.
    const requests = await histogram('http.server.request.duration');
    expect(requests.map((p) => [p.attributes['http.route'], p.attributes['http.response.status_code'], p.value.count])).toEqual([['/kitt/offers/:id/send', 200, 1]]);
    const handlings = await histogram('messaging.process.duration');
    expect(handlings.map((p) => [p.attributes['messaging.consumer.group.name'], p.attributes['ruilplein.outcome'], p.value.count]).sort()).toEqual([
      ['kitt-chat', 'handled', 1],
      ['kitt-listing', 'handled', 1],
      ['kitt-notification', 'handled', 1],
    ]);
  });

  it('gives a store command outside any trace no span of its own', async () => {
    const before = exporter.getFinishedSpans().length;
    await infra.db.collection('offers').findOne({ _id: 'untraced' } as never);
    const inside = tracerForTest.startSpan('a handler');
    await context.with(trace.setSpan(context.active(), inside), () => infra.db.collection('offers').findOne({ _id: 'traced' } as never));
    inside.end();
    const added = exporter.getFinishedSpans().slice(before);
    expect(added.map((s) => s.name)).toEqual(['find offers', 'a handler']);
    expect(parentOf(added[0]!)).toBe(inside.spanContext().spanId);
  });
});
