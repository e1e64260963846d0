// A job a service runs every so often (sweeps, cleanups, renewals): one round at a time, a failed
// round only logged (the next one tries again), and stopped with the service. The pacing lives
// here, once: on a store that scans (FerretDB), a job that reads a whole collection must stay a
// small share of the store's time.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './logger.ts';

/** Something running in the background (a consumer, a relay, a periodic job) that a service stops on shutdown. */
export interface Worker {
  stop(): Promise<void>;
}

export interface Periodic<T> extends Worker {
  /** One round now (or the one under way). */
  run(): Promise<T>;
}

/** What a round may ask of its job. */
export interface Round {
  /**
   * Between two pages of work: rests `restFactor` times as long as the work since the last pause
   * took, so a long round leaves the store to others; resolves at once when the job stops.
   */
  pace(): Promise<void>;
  /** The job is stopping: end the round early. */
  readonly stopped: boolean;
}

export interface PeriodicOptions<T> {
  intervalMs: number;
  work: (round: Round) => Promise<T>;
  logger: Logger;
  what: string;
  /**
   * A round starts no sooner than this many times its predecessor's duration after that one ended
   * (and `pace()` rests as much within a round). Default 0: every tick.
   */
  restFactor?: number;
  /** Asked at each tick (after the pacing): false skips it. Default: every tick is due. */
  due?: () => boolean;
}

export function startPeriodic<T>(options: PeriodicOptions<T>): Periodic<T> {
  const restFactor = options.restFactor ?? 0;
  let running: Promise<T> | undefined;
  let stopped = false;
  const stopping = new AbortController();
  // Durations, not dates: performance.now() is the process's monotonic clock.
  let last = { endedAt: -Infinity, ms: 0 };

  const round = (): Round => {
    let since = performance.now();
    return {
      get stopped() {
        return stopped;
      },
      async pace() {
        const worked = performance.now() - since;
        if (restFactor > 0 && worked > 0 && !stopped) await sleep(restFactor * worked, undefined, { signal: stopping.signal }).catch(() => undefined);
        since = performance.now();
      },
    };
  };

  const run = () => {
    if (running) return running;
    const startedAt = performance.now();
    running = options.work(round()).finally(() => {
      last = { endedAt: performance.now(), ms: performance.now() - startedAt };
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (running || stopped) return; // still busy with the last round
    if (performance.now() - last.endedAt < restFactor * last.ms) return;
    if (options.due && !options.due()) return;
    run().catch((err: unknown) => options.logger.warn({ err }, `${options.what} failed; the next round tries again`));
  }, options.intervalMs);
  timer.unref();
  return {
    run,
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
