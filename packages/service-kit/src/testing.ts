import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rereadClock } from './clock.ts';

export * from './test-http.ts';
export * from './service-test.ts';

/** A response body for assertions; tests check its shape themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const body = (res: Response): Promise<any> => res.json();

/** Runs a service's `main.ts` as its own process with only the given environment (and PATH). */
export function runMain(main: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}

export interface TestClock {
  /** Sets the offset from real time (0 puts it back). */
  move(ms: number): Promise<void>;
  close(): Promise<void>;
}

let testClockOfProcess: Promise<TestClock> | undefined;

/**
 * Moves the platform clock (clock.ts) of this test process, as RUILPLEIN_CLOCK_FILE does for a
 * local platform; one per process (every caller gets the same). The services a test runs in its
 * own process see a move at once; other processes re-read within 200 ms. `close()` ends it.
 */
export function testClock(): Promise<TestClock> {
  testClockOfProcess ??= (async () => {
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'ruilplein-clock-'));
    const file = join(dir, 'offset');
    process.env.RUILPLEIN_CLOCK_FILE = file;
    return {
      async move(ms) {
        await writeFile(file, String(ms));
        rereadClock();
      },
      async close() {
        testClockOfProcess = undefined;
        if (process.env.RUILPLEIN_CLOCK_FILE === file) delete process.env.RUILPLEIN_CLOCK_FILE;
        rereadClock();
        await rm(dir, { recursive: true, force: true });
      },
    };
  })();
  return testClockOfProcess;
}

export { runBenchSmoke } from './bench-smoke.ts';
export { benchRequest, runBenchMain, startBenchService, type BenchService } from './bench-process.ts';
