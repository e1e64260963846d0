// The Prometheus scrape endpoint a service opens with OTEL_METRICS_EXPORTER=prometheus (clusters
// scraped by Prometheus): requests per route with their status, and the kit's gauges.
import { createServer, type AddressInfo } from 'node:net';
import { defineRoute } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addGaugeProducer, createApp, startTelemetry } from '../src/index.ts';
import { listen } from '../src/test-http.ts';
import { silentLogger } from '../src/testing.ts';

const item = defineRoute({ service: 'listing', method: 'get', path: '/items/:id', summary: 'one', access: 'public', params: z.object({ id: z.string() }), response: z.object({ id: z.string() }) });
const broken = defineRoute({ service: 'listing', method: 'get', path: '/broken', summary: 'fails', access: 'public', response: z.object({}) });

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let metricsUrl: string;
let stopTelemetry: () => Promise<void>;
let server: Awaited<ReturnType<typeof listen>>;
let removeGauge: () => void;

beforeAll(async () => {
  const port = await freePort();
  process.env.OTEL_METRICS_EXPORTER = 'prometheus';
  process.env.OTEL_EXPORTER_PROMETHEUS_HOST = '127.0.0.1';
  process.env.OTEL_EXPORTER_PROMETHEUS_PORT = String(port);
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  stopTelemetry = startTelemetry('kit-metrics', undefined);
  removeGauge = addGaugeProducer('ruilplein.outbox.pending', () => [{ value: 3, attributes: { collection: 'offers' } }]);
  const app = createApp({
    service: 'test',
    logger: silentLogger(),
    verifyToken: () => Promise.reject(new Error('no tokens here')),
    routes: { t: { item, broken } },
    handlers: {
      t: {
        item: ({ params }) => ({ id: params.id }),
        broken: () => {
          throw new Error('kapot');
        },
      },
    },
  });
  server = await listen(app);
});
afterAll(async () => {
  removeGauge();
  await server.close();
  await stopTelemetry();
});

/** The scrape's sample lines of one metric. */
async function samples(name: string): Promise<string[]> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  return (await res.text()).split('\n').filter((line) => line.startsWith(name));
}

describe('the Prometheus scrape endpoint', () => {
  it('counts requests per route template and status, errors apart, with their duration histogram', async () => {
    for (const id of ['1', '2']) expect((await fetch(`${server.url}/items/${id}`)).status).toBe(200);
    expect((await fetch(`${server.url}/broken`)).status).toBe(500);
    const counts = await samples('http_server_request_duration_count');
    const ok = counts.find((l) => l.includes('http_route="/items/:id"') && l.includes('http_response_status_code="200"'));
    expect(ok).toMatch(/ 2$/);
    const failed = counts.find((l) => l.includes('http_route="/broken"'));
    expect(failed).toContain('error_type="500"');
    expect(failed).toMatch(/ 1$/);
    // No series per member: the ids of the path are not in it.
    expect(counts.join('\n')).not.toContain('/items/1');
    expect((await samples('http_server_request_duration_bucket')).some((l) => l.includes('le="0.005"'))).toBe(true);
  });

  it('reports the outbox and dead-letter gauges', async () => {
    expect(await samples('ruilplein_outbox_pending')).toEqual([expect.stringMatching(/^ruilplein_outbox_pending\{collection="offers".*\} 3$/)]);
  });
});
