import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { installKitGauges } from './metrics.ts';

/** The metric exporters OTEL_METRICS_EXPORTER names (`otlp`, `prometheus`, `none`…), as the SDK reads them. */
const metricExporters = (env: NodeJS.ProcessEnv) =>
  (env.OTEL_METRICS_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * Starts OpenTelemetry, configured as the SDK's environment variables say:
 * - OTEL_EXPORTER_OTLP_ENDPOINT (OTLP/HTTP, `http://collector:4318`): traces go there, and
 *   metrics too (every 60 s, unless OTEL_METRICS_EXPORTER leaves `otlp` out). Without it nothing is
 *   exported, but spans still get real ids, so logs carry trace ids and trace context still
 *   travels over HTTP, NATS and the hubs.
 * - OTEL_METRICS_EXPORTER=prometheus (with or without `otlp`): a Prometheus scrape endpoint,
 *   `http://<OTEL_EXPORTER_PROMETHEUS_HOST>:<OTEL_EXPORTER_PROMETHEUS_PORT, 9464>/metrics`, with
 *   or without an OTLP endpoint (a cluster scraped by Prometheus needs no collector).
 * The kit's metrics: `http.server.request.duration` per route, `messaging.process.duration` per
 * consumer, and the outbox, mail and dead-letter gauges (metrics.ts).
 */
export function startTelemetry(service: string, endpoint: string | undefined): () => Promise<void> {
  const wanted = metricExporters(process.env);
  if (endpoint) {
    const base = endpoint.replace(/\/$/, '');
    // The SDK builds its metric readers from the environment, the OTLP one pointed here.
    process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT ??= `${base}/v1/metrics`;
  } else {
    // Nothing may go over OTLP (the SDK's default exporter would try localhost): Prometheus only, if asked for.
    process.env.OTEL_METRICS_EXPORTER = wanted.includes('prometheus') ? 'prometheus' : 'none';
  }
  const sdk = new NodeSDK({
    serviceName: service,
    ...(endpoint
      ? { traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }) }
      : // Recorded (real ids, for logs and propagation) but sent nowhere.
        { spanProcessors: [new tracing.NoopSpanProcessor()] }),
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  installKitGauges();
  return () => sdk.shutdown();
}
