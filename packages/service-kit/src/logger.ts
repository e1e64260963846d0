import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines with the service name and, inside a span, its trace and span id. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const span = trace.getActiveSpan()?.spanContext();
      return span ? { traceId: span.traceId, spanId: span.spanId } : {};
    },
  });
}
