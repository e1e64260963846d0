import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines with the service name and, inside a span (a request, an event handler, a hub
 * connection), its `trace_id` and `span_id`: the names of OpenTelemetry's log data model, so a
 * line leads to its trace in Jaeger. A caller that names them itself (`traceId`, `spanId`: the
 * gateway's lines, which keep no active span) is written under the same names. Standard output
 * unless `destination` says otherwise (tests read the lines).
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const span = trace.getActiveSpan()?.spanContext();
      return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
    },
    formatters: {
      log(object) {
        if (!('traceId' in object) && !('spanId' in object)) return object;
        const { traceId, spanId, ...rest } = object;
        return { ...rest, ...(traceId ? { trace_id: traceId } : {}), ...(spanId ? { span_id: spanId } : {}) };
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
