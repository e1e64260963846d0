import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { installKitGauges } from './metrics.ts';

/**
 * Starts OpenTelemetry. Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported, but spans still
 * get real ids, so logs carry trace ids and trace context still travels over HTTP and NATS.
 * With it, metrics (the kit's outbox and dead-letter gauges) are exported too, every 60 s.
 */
export function startTelemetry(service: string, endpoint: string | undefined): () => Promise<void> {
  if (!endpoint) {
    const provider = new NodeTracerProvider();
    provider.register();
    return () => provider.shutdown();
  }
  const base = endpoint.replace(/\/$/, '');
  // No metricReaders option: the SDK builds its OTLP metric exporter from the environment
  // (OTEL_METRICS_EXPORTER=none turns it off), pointed here at the configured endpoint.
  process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT ??= `${base}/v1/metrics`;
  const sdk = new NodeSDK({
    serviceName: service,
    traceExporter: new OTLPTraceExporter({ url: `${base}/v1/traces` }),
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  installKitGauges();
  return () => sdk.shutdown();
}
