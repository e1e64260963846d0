import { metrics, type Attributes, type Histogram, type MeterProvider } from '@opentelemetry/api';

/**
 * The kit's own gauges. Each is created once per meter provider; every outbox relay and consumer
 * adds a producer while it runs, so one process reports all of its collections and durables.
 */
const gauges = {
  'ruilplein.outbox.pending': { description: 'Outbox events waiting to be published, per collection', unit: '{event}' },
  'ruilplein.outbox.parked': { description: 'Outbox events parked after failed publishes, per collection', unit: '{event}' },
  'ruilplein.deadletter.messages': { description: 'Messages parked on the dead-letter stream, per durable', unit: '{message}' },
  'ruilplein.mail.pending': { description: 'Mails waiting to be sent (for a retry), per collection', unit: '{mail}' },
  'ruilplein.mail.parked': { description: 'Mails parked after failed sends, per collection', unit: '{mail}' },
} as const;

export type KitGauge = keyof typeof gauges;
export interface Observation {
  value: number;
  attributes: Attributes;
}
type Producer = () => Observation[] | Promise<Observation[]>;

const producers = new Map<KitGauge, Set<Producer>>();
let installedOn: MeterProvider | undefined;

/** Creates the gauges on the current global meter provider (again, if it changed since). */
export function installKitGauges(): void {
  const provider = metrics.getMeterProvider();
  if (installedOn === provider) return;
  installedOn = provider;
  const meter = provider.getMeter('@ruilplein/service-kit');
  for (const [name, options] of Object.entries(gauges) as [KitGauge, (typeof gauges)[KitGauge]][]) {
    meter.createObservableGauge(name, options).addCallback(async (result) => {
      for (const values of await observeKitGauge(name)) for (const o of values) result.observe(o.value, o.attributes);
    });
  }
}

/** Adds a source of values to a kit gauge; returns its removal. */
export function addGaugeProducer(name: KitGauge, producer: Producer): () => void {
  installKitGauges();
  let set = producers.get(name);
  if (!set) producers.set(name, (set = new Set()));
  set.add(producer);
  return () => set.delete(producer);
}

/** The current values of a gauge (what an export would observe); a failing source reports nothing. */
export async function observeKitGauge(name: KitGauge): Promise<Observation[][]> {
  return Promise.all([...(producers.get(name) ?? [])].map(async (p) => (await Promise.resolve().then(p).catch(() => [])) as Observation[]));
}

/**
 * Rate, errors and duration in one histogram each, as OpenTelemetry's semantic conventions have
 * them: a count per bucket is the rate, the status (or outcome) attribute the errors. Requests per
 * route (`http.route`, the contract's path template; never the path itself, whose ids would make a
 * series per member), event handlings per consumer (`messaging.consumer.group.name`, the durable).
 */
const histograms = {
  'http.server.request.duration': { description: 'Duration of HTTP requests, per route and status', unit: 's' },
  'messaging.process.duration': { description: 'Duration of event handlings, per consumer and outcome', unit: 's' },
} as const;
type KitHistogram = keyof typeof histograms;
/** Seconds: from a millisecond to ten seconds, finer where requests are. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let histogramsOn: MeterProvider | undefined;
let created = new Map<KitHistogram, Histogram>();

/** Records one duration (seconds) in a kit histogram, created on the current meter provider. */
export function recordDuration(name: KitHistogram, seconds: number, attributes: Attributes): void {
  const provider = metrics.getMeterProvider();
  if (histogramsOn !== provider) {
    histogramsOn = provider;
    created = new Map();
  }
  let histogram = created.get(name);
  if (!histogram) {
    histogram = provider.getMeter('@ruilplein/service-kit').createHistogram(name, { ...histograms[name], advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
    created.set(name, histogram);
  }
  histogram.record(seconds, attributes);
}
