import { spawn } from 'node:child_process';

export interface BenchSmokeOptions {
  /** Each must match the bench's standard output: the figures it exists to print. */
  figures: RegExp[];
  /** Further arguments after `--smoke`. */
  args?: string[];
  /** Added to this process's environment (the bench finds the stores' programs through PATH). */
  env?: Record<string, string>;
  /** The child is killed after this long; a smoke run takes seconds. Default 120 s. */
  timeoutMs?: number;
}

/**
 * Runs a bench script with `--smoke` (tiny sizes, seconds) as its own process and checks that it
 * exits 0 and printed its figures, none of them NaN. It asserts nothing on time: it only keeps a
 * bench from rotting unnoticed. Resolves to the output; rejects with the output's tail otherwise.
 */
export async function runBenchSmoke(script: string, options: BenchSmokeOptions): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script, '--smoke', ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timeoutMs = options.timeoutMs ?? 120_000;
  // SIGINT first: the benches stop their stores and services on it.
  const timer = setTimeout(() => {
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, s) => resolve([c, s]));
  }).finally(() => clearTimeout(timer));

  const tail = () => `\n--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`;
  if (code !== 0) throw new Error(`${script} --smoke ended with ${signal ?? `exit code ${code}`}${tail()}`);
  const missing = options.figures.filter((re) => !re.test(stdout));
  if (missing.length) throw new Error(`${script} --smoke did not print ${missing.map(String).join(', ')}${tail()}`);
  if (/\bNaN\b/.test(stdout)) throw new Error(`${script} --smoke printed NaN for a figure${tail()}`);
  return { stdout, stderr };
}
