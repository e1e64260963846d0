import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * Starts OpenTelemetry. Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported, but spans still
 * get real ids, so logs carry trace ids and trace context still travels over HTTP and NATS.
 */
export function startTelemetry(service: string, endpoint: string | undefined): () => Promise<void> {
  if (!endpoint) {
    const provider = new NodeTracerProvider();
    provider.register();
    return () => provider.shutdown();
  }
  const sdk = new NodeSDK({
    serviceName: service,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return () => sdk.shutdown();
}
