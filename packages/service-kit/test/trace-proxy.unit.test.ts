// The local edge's spans (traceProxy): the first hop of a trace, whose context goes on to the next.
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceProxy } from '../src/index.ts';
import { waitFor } from './helpers.ts';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
/** The headers each request arrived with at the proxy's own handler (what it would pass on). */
const passed: IncomingHttpHeaders[] = [];
const proxy = createServer((req, res) => {
  passed.push({ ...req.headers });
  res.end('ok');
});
let url: string;

beforeAll(async () => {
  provider.register();
  traceProxy(proxy, (path) => path.startsWith('/api/'));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await provider.shutdown();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve, reject) => {
    request(`${url}${path}`, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });

describe('traceProxy', () => {
  it('starts a trace for a proxied path, names it without ids, and passes its context on', async () => {
    exporter.reset();
    passed.length = 0;
    expect(await get('/api/tradeoffer/12345/accept')).toBe(200);
    // Ended as the answer is done on the proxy's side.
    await waitFor(() => exporter.getFinishedSpans().length === 1);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('GET /api/tradeoffer/:id/accept');
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.parentSpanContext).toBeUndefined();
    expect(passed[0]?.traceparent).toBe(`00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`);
  });

  it('continues a caller’s trace, and leaves other paths alone', async () => {
    exporter.reset();
    passed.length = 0;
    const traceId = 'ab'.repeat(16);
    expect(await get('/api/listing', { traceparent: `00-${traceId}-${'cd'.repeat(8)}-01` })).toBe(200);
    expect(await get('/mfe/listings/remoteEntry.js')).toBe(200);
    await waitFor(() => exporter.getFinishedSpans().length === 1);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.spanContext().traceId, s.parentSpanContext?.spanId])).toEqual([['GET /api/listing', traceId, 'cd'.repeat(8)]]);
    expect(passed[1]?.traceparent).toBeUndefined();
  });
});
