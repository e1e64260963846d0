// A job a service runs every so often (sweeps, cleanups, renewals): one round at a time, a failed
// round only logged (the next one tries again), and stopped with the service.
import type { Logger } from './logger.ts';
import type { Worker } from './nats.ts';

export interface Periodic<T> extends Worker {
  /** One round now (or the one under way). */
  run(): Promise<T>;
}

export function startPeriodic<T>(options: { intervalMs: number; work: () => Promise<T>; logger: Logger; what: string }): Periodic<T> {
  let running: Promise<T> | undefined;
  const run = () => {
    running ??= options.work().finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => {
    if (running) return; // still busy with the last round
    run().catch((err: unknown) => options.logger.warn({ err }, `${options.what} failed; the next round tries again`));
  }, options.intervalMs);
  timer.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
