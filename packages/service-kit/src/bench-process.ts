// What the benches that start services as processes share: one service process with its log in a
// file, waited for until ready and stopped gently; requests over a keep-alive agent; and a run that
// cleans up once, whether the bench ends, fails or is stopped with Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { request, type Agent } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface BenchServiceOptions {
  /** Names its log file (`<logDir>/<name>.log`) and it in errors. */
  name: string;
  /** The service's `main.ts`. */
  main: string;
  port: number;
  /** Its whole environment besides PATH (stores' URLs, HOST, LOG_LEVEL...); PORT is set from `port`. */
  env: Record<string, string>;
  logDir: string;
  /** Node's own arguments before `main` (`--expose-gc`, `--import probe.ts`). */
  nodeArgs?: string[];
  /** How long it may take to be ready (a large index loads for minutes). Default 60 s. */
  readyTimeoutMs?: number;
  /** What must answer 200: `/readyz` (default), or `/healthz` for a service whose readiness waits on others. */
  readyPath?: '/healthz' | '/readyz';
}

export interface BenchService {
  url: string;
  child: ChildProcess;
  /** From the spawn until the port first answered. */
  listeningMs: number;
  /** From the spawn until /readyz answered 200. */
  readyMs: number;
  /** SIGTERM, then SIGKILL after 20 s; nothing when it has exited already. */
  stop(): Promise<void>;
}

/** Starts a service's `main.ts` as its own process and resolves once its `readyPath` answers 200. */
export async function startBenchService(options: BenchServiceOptions): Promise<BenchService> {
  const logFile = join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.main], {
    env: { PATH: process.env.PATH, ...options.env, PORT: String(options.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.once('close', () => log.end());
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = started + (options.readyTimeoutMs ?? 60_000);
  let listeningMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.name} exited with ${child.exitCode}; see ${logFile}`);
    if (performance.now() > deadline) throw new Error(`${options.name} not ready within ${Math.round((options.readyTimeoutMs ?? 60_000) / 1000)} s; see ${logFile}`);
    const status = await fetch(`${url}${options.readyPath ?? '/readyz'}`).then((r) => r.status, () => 0);
    if (status && !listeningMs) listeningMs = performance.now() - started;
    if (status === 200) break;
    await sleep(100);
  }
  return {
    url,
    child,
    listeningMs,
    readyMs: performance.now() - started,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      if ((await Promise.race([exited, sleep(20_000, 'timeout')])) === 'timeout') child.kill('SIGKILL');
    },
  };
}

export interface BenchRunOptions {
  /** The bench's folder: its stores' data goes after the run, and all of it after a smoke run (logs of a full run stay). */
  dataDir: string;
  smoke: boolean;
  /** Runs when `main` fails, before the clean-up (a smoke run shows the services' logs before its temp dir goes). */
  onError?: (err: unknown) => void | Promise<void>;
}

/**
 * Runs a bench's `main`, then `cleanup` exactly once: after the end, after an error (which is
 * thrown on), or on SIGINT/SIGTERM (then the process exits 130).
 */
export async function runBenchMain(main: () => Promise<void>, cleanup: () => Promise<void>, options: BenchRunOptions): Promise<void> {
  let cleaning: Promise<void> | undefined;
  const cleanOnce = () =>
    (cleaning ??= (async () => {
      await cleanup();
      for (const store of ['mongo', 'redis', 'nats']) await rm(join(options.dataDir, store), { recursive: true, force: true });
      if (options.smoke) await rm(options.dataDir, { recursive: true, force: true });
    })());
  const stopped = () => void cleanOnce().finally(() => process.exit(130));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stopped);
  try {
    await main();
  } catch (err) {
    await options.onError?.(err);
    throw err;
  } finally {
    await cleanOnce();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stopped);
  }
}

/**
 * One request over plain node:http through `agent` (keep-alive, a bench's own socket limit) and no
 * time limit: a slow service must show as slow, not fail. Answers the status and the body as text.
 */
export function benchRequest(agent: Agent, url: string, options: { method?: string; token?: string; body?: Buffer; type?: string } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent,
      method: options.method ?? 'GET',
      headers: { ...(options.token && { authorization: `Bearer ${options.token}` }), ...(options.body && { 'content-type': options.type, 'content-length': options.body.length }) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
