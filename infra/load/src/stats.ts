// Timings and outcomes per step, and what the table shows of them.

/** Nearest-rank percentile of an ascending list (p in 0..100); NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface StepSummary {
  step: string;
  /** Answers timed (successes and refusals). */
  count: number;
  /** Answers a second over the run. */
  perSecond: number;
  errors: number;
  /** Expected refusals of a race between members (the listing was just traded, the offer just withdrawn). */
  refused: number;
  /** Attempts repeated as the browser does (a chat the chat service does not know yet). */
  retries: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

interface StepData {
  times: number[];
  errors: number;
  refused: number;
  retries: number;
}

/** Collects every timing and outcome of a run; one per run, shared by all members. */
export class Recorder {
  readonly #steps = new Map<string, StepData>();
  /** Why steps failed or were refused, with counts: `step: reason`. */
  readonly errorReasons = new Map<string, number>();
  readonly refusalReasons = new Map<string, number>();

  readonly #onError?: (step: string, reason: string) => void;

  /** `onError`: told of each error as it happens (chaos counts them per kill). */
  constructor(onError?: (step: string, reason: string) => void) {
    this.#onError = onError;
  }

  #of(step: string): StepData {
    let data = this.#steps.get(step);
    if (!data) this.#steps.set(step, (data = { times: [], errors: 0, refused: 0, retries: 0 }));
    return data;
  }

  time(step: string, ms: number): void {
    this.#of(step).times.push(ms);
  }

  error(step: string, reason: string): void {
    this.#of(step).errors++;
    this.#onError?.(step, reason);
    const key = `${step}: ${reason}`;
    this.errorReasons.set(key, (this.errorReasons.get(key) ?? 0) + 1);
  }

  refused(step: string, reason: string): void {
    this.#of(step).refused++;
    const key = `${step}: ${reason}`;
    this.refusalReasons.set(key, (this.refusalReasons.get(key) ?? 0) + 1);
  }

  retried(step: string): void {
    this.#of(step).retries++;
  }

  get errors(): number {
    let n = 0;
    for (const d of this.#steps.values()) n += d.errors;
    return n;
  }

  /** Every step seen, in `order` first and then by name; `seconds` is the run's length for the rate. */
  summary(seconds: number, order: readonly string[] = []): StepSummary[] {
    const names = [...this.#steps.keys()].sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
    return names.map((step) => {
      const d = this.#steps.get(step)!;
      const sorted = [...d.times].sort((a, b) => a - b);
      return {
        step,
        count: sorted.length,
        perSecond: seconds > 0 ? sorted.length / seconds : 0,
        errors: d.errors,
        refused: d.refused,
        retries: d.retries,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
      };
    });
  }
}

const rank = (order: readonly string[], step: string) => {
  const at = order.indexOf(step);
  return at === -1 ? order.length : at;
};
