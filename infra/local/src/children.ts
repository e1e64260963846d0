import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const live = new Set<ChildProcess>();
let hooked = false;
let stopSignalHandler: ((signal: NodeJS.Signals) => void) | undefined;

const killAll = () => {
  for (const child of live) child.kill('SIGTERM');
};

function hookProcess() {
  if (hooked) return;
  hooked = true;
  // Last resort for stragglers: a normal exit, process.exit() or an uncaught error all pass here.
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, function onSignal() {
      if (stopSignalHandler) return stopSignalHandler(signal);
      killAll();
      // Without our listener the signal has its usual effect again (or goes to whoever else
      // listens), as if we had never listened. Deciding by "does anyone else listen" fails:
      // signal-exit (loaded with testcontainers) listens but only acts when it is alone.
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    });
  }
}

/**
 * Lets the app stop its children in its own order (services before the stores they use):
 * SIGINT, SIGTERM and SIGHUP then call `handler` instead of stopping every child at once.
 */
export function onStopSignal(handler: (signal: NodeJS.Signals) => void): void {
  hookProcess();
  stopSignalHandler = handler;
}

/**
 * Spawns a child that never outlives this process. It gets its own process group, so a Ctrl-C in
 * the terminal (sent to the whole foreground group) does not reach it: we stop children in order
 * (services before the stores they use).
 */
export function spawnChild(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  hookProcess();
  const child = spawn(command, args, { ...options, detached: true });
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.once('error', () => live.delete(child));
  return child;
}

export const hasExited = (child: ChildProcess) => child.pid === undefined || child.exitCode !== null || child.signalCode !== null;

/**
 * SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. `group`: to the child's
 * whole process group (spawnChild makes one per child), for a child like `npm run` that does not
 * pass signals on to what it runs.
 */
export async function stopChild(child: ChildProcess, graceMs = 5000, { group = false } = {}): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (group && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Calls `onLine` for every complete line the child writes to stdout or stderr. */
export function onOutputLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLine(line.replace(/\r$/, ''));
    });
    stream?.on('end', () => rest && onLine(rest));
  }
}
