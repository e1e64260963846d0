// The traces goal (issue 25): at least 99 % of a load run's requests give one complete trace. With
// `--traces`, every request the edge traces leaves the load generator with a W3C `traceparent` of
// its own (a fresh trace id, the member's request as the parent span), so each request is exactly
// one trace id in Jaeger: the edge's span, the gateway's, the service's, and through the outbox and
// NATS the consumers' spans in other services. After the run the generator asks Jaeger's query API
// for every one of them. A trace is complete when it has exactly one root, the edge's span under
// the member's request, and every other span's parent is in the trace (no orphan spans).
import { randomBytes } from 'node:crypto';
import { pathWithoutIds } from '@ruilplein/contracts';

/** Paths whose requests the edge traces (infra/local platform.ts GATEWAY_PREFIXES); the rest are files or the dev mail outbox. */
const TRACED_PREFIXES = ['/api', '/chathub', '/notificationhub', '/uploads'];
export const isTracedPath = (path: string) => TRACED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** One traced request: its trace id and the span id the edge's span names as its parent. */
export interface SentTrace {
  traceId: string;
  parentSpanId: string;
  /** `GET /api/listing` (ids as :id): what the report groups incomplete traces by. */
  what: string;
}

/** Collects the run's traced requests. */
export class TraceLog {
  readonly sent: SentTrace[] = [];

  /** A `traceparent` for a new request (sampled), remembered for the check after the run. */
  header(method: string, path: string): string {
    const traceId = randomBytes(16).toString('hex');
    const parentSpanId = randomBytes(8).toString('hex');
    this.sent.push({ traceId, parentSpanId, what: `${method} ${pathWithoutIds(path.split('?', 1)[0]!)}` });
    return `00-${traceId}-${parentSpanId}-01`;
  }
}

/** A span as Jaeger's query API answers it (only what the check reads). */
export interface JaegerSpan {
  spanID: string;
  operationName?: string;
  processID?: string;
  references?: Array<{ refType: string; traceID: string; spanID: string }>;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes?: Record<string, { serviceName: string }>;
}

/** Why a trace is not complete; undefined when it is. */
export function incompleteReason(trace: JaegerTrace | undefined, sent: Pick<SentTrace, 'parentSpanId'>): string | undefined {
  if (!trace || trace.spans.length === 0) return 'not in Jaeger';
  const ids = new Set(trace.spans.map((s) => s.spanID));
  const service = (s: JaegerSpan) => (s.processID && trace.processes?.[s.processID]?.serviceName) || '?';
  let roots = 0;
  const orphans: string[] = [];
  for (const span of trace.spans) {
    const parent = span.references?.find((r) => r.refType === 'CHILD_OF' && r.traceID === trace.traceID)?.spanID;
    if (parent === sent.parentSpanId) roots++;
    else if (!parent || !ids.has(parent)) orphans.push(`${service(span)}: ${span.operationName ?? '?'}`);
  }
  if (orphans.length) return `orphan span (${orphans.slice(0, 2).join('; ')})`;
  if (roots !== 1) return roots === 0 ? 'no span under the request (the edge\'s is missing)' : `${roots} spans under the request`;
  return undefined;
}

export interface TraceShare {
  /** Requests sent with a trace of their own. */
  requests: number;
  complete: number;
  /** complete / requests, in percent. */
  percent: number;
  /** Spans found over all the run's traces. */
  spans: number;
  /** Why the others are not complete, with counts (`reason — request`). */
  reasons: Map<string, number>;
  /** Seconds spent waiting for Jaeger to have every span. */
  waitedSeconds: number;
}

const BATCH = 100;

/** The traces of `ids` (as many as Jaeger has), by id: one query per batch of ids. */
export async function fetchTraces(jaegerUrl: string, ids: readonly string[]): Promise<Map<string, JaegerTrace>> {
  const found = new Map<string, JaegerTrace>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const url = new URL('/api/traces', jaegerUrl);
    for (const id of batch) url.searchParams.append('traceID', id);
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    // A batch none of whose traces exists is answered 404.
    if (res.status === 404) {
      await res.body?.cancel();
      continue;
    }
    if (!res.ok) throw new Error(`Jaeger ${url.pathname} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { data?: JaegerTrace[] | null };
    for (const trace of body.data ?? []) found.set(trace.traceID.padStart(32, '0'), trace);
  }
  return found;
}

/**
 * Asks Jaeger for every traced request of the run and counts the complete traces. Spans arrive
 * late (each service exports in batches, consumers run after the relay published): it asks again
 * for the incomplete ones until their number stops falling (two looks in a row), at most `maxWaitMs`.
 */
export async function measureTraces(jaegerUrl: string, log: TraceLog, { maxWaitMs = 120_000, lookEveryMs = 5000, say = (_line: string) => {} } = {}): Promise<TraceShare> {
  const started = performance.now();
  const byId = new Map(log.sent.map((s) => [s.traceId, s]));
  const traces = new Map<string, JaegerTrace>();
  let open = [...byId.keys()];
  let previous = Infinity;
  let unchanged = 0;
  for (let look = 0; ; look++) {
    if (look > 0) await new Promise((resolve) => setTimeout(resolve, lookEveryMs));
    for (const [id, trace] of await fetchTraces(jaegerUrl, open)) traces.set(id, trace);
    open = open.filter((id) => incompleteReason(traces.get(id), byId.get(id)!) !== undefined);
    say(`traces: ${byId.size - open.length}/${byId.size} complete`);
    unchanged = open.length < previous ? 0 : unchanged + 1;
    previous = open.length;
    if (open.length === 0 || unchanged >= 2 || performance.now() - started > maxWaitMs) break;
  }
  // Once more for all of them: a trace complete at an early look may have gained spans since.
  traces.clear();
  for (const [id, trace] of await fetchTraces(jaegerUrl, [...byId.keys()])) traces.set(id, trace);
  open = [...byId.keys()].filter((id) => incompleteReason(traces.get(id), byId.get(id)!) !== undefined);
  const reasons = new Map<string, number>();
  for (const id of open) {
    const key = `${incompleteReason(traces.get(id), byId.get(id)!)} - ${byId.get(id)!.what}`;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  const requests = byId.size;
  const complete = requests - open.length;
  return {
    requests,
    complete,
    percent: requests ? (complete / requests) * 100 : 100,
    spans: [...traces.values()].reduce((n, t) => n + t.spans.length, 0),
    reasons,
    waitedSeconds: (performance.now() - started) / 1000,
  };
}
