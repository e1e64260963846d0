// The trace viewer of `npm start`: Jaeger v2 as bootstrap.ts builds it and stores.ts starts it
// takes a span over OTLP and shows it through its query API and UI.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJaeger, type Jaeger } from '../src/stores.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ruilplein-jaeger-'));
let jaeger: Jaeger;

beforeAll(async () => {
  jaeger = await startJaeger({ dataDir });
});
afterAll(async () => {
  await jaeger?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One span as OTLP/JSON, what the services' exporter sends as protobuf. */
function otlpSpan(traceId: string, spanId: string, name: string) {
  const now = BigInt(Date.now()) * 1_000_000n;
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'jaeger-test' } }] },
        scopeSpans: [
          {
            scope: { name: 'jaeger.int.test' },
            spans: [{ traceId, spanId, name, kind: 2, startTimeUnixNano: String(now - 5_000_000n), endTimeUnixNano: String(now), attributes: [{ key: 'http.route', value: { stringValue: '/api/test' } }] }],
          },
        ],
      },
    ],
  };
}

describe('jaeger', () => {
  it('takes a span over OTLP/HTTP and finds it by trace id through the query API', async () => {
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    const sent = await fetch(`${jaeger.otlpHttpUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(otlpSpan(traceId, spanId, 'GET /api/test')),
    });
    expect(sent.status).toBe(200);

    // Stored after its batch (200 ms): asked until it is there.
    let found: { data?: { traceID: string; spans: { spanID: string; operationName: string }[]; processes: Record<string, { serviceName: string }> }[] } | undefined;
    const deadline = Date.now() + 10_000;
    while (!found?.data?.length) {
      const res = await fetch(`${jaeger.url}/api/traces/${traceId}`);
      if (res.status === 200) found = (await res.json()) as typeof found;
      else await res.body?.cancel();
      if (!found?.data?.length) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const [trace] = found.data;
    expect(trace!.traceID).toBe(traceId);
    expect(trace!.spans.map((s) => [s.spanID, s.operationName])).toEqual([[spanId, 'GET /api/test']]);
    expect(Object.values(trace!.processes).map((p) => p.serviceName)).toEqual(['jaeger-test']);
    // The service list the UI's search form offers.
    const services = (await (await fetch(`${jaeger.url}/api/services`)).json()) as { data: string[] };
    expect(services.data).toContain('jaeger-test');
  });

  it('answers an unknown trace with 404 and serves its UI page', async () => {
    const missing = await fetch(`${jaeger.url}/api/traces/${randomBytes(16).toString('hex')}`);
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    const page = await fetch(`${jaeger.url}/search`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html');
    // The real UI (vendored, unpacked by the bootstrap), not the Go module's placeholder page: its bundle loads.
    const bundle = /src="\.\/static\/(index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(bundle, 'the built UI, not the placeholder').toBeTruthy();
    const script = await fetch(`${jaeger.url}/static/${bundle}`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
  });
});
