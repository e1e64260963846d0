// The frontends the local platform serves, and building the ones whose build is missing or stale.
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { onOutputLines, spawnChild } from './children.ts';
import { repoRoot } from './paths.ts';

export interface Frontend {
  /** Folder and last part of the package name: `mfe-listings`. */
  workspace: string;
  package: string;
  /** Where the edge serves it from: `/mfe/<remote>/`; none for the shell (served at `/`). */
  remote?: string;
  dist: string;
  /** The file a finished build always has; its time is the build's time. */
  marker: string;
}

const frontend = (workspace: string, remote?: string): Frontend => ({
  workspace,
  package: `@ruilplein/${workspace}`,
  ...(remote ? { remote } : {}),
  dist: join(repoRoot, workspace, 'dist'),
  // The shell's app.html is written last, after its prerendered pages (packages/frontend-build/src/prerender.ts).
  marker: join(repoRoot, workspace, 'dist', remote ? 'mf-manifest.json' : 'app.html'),
});

export const frontends: readonly Frontend[] = [frontend('shell'), frontend('mfe-listings', 'listings'), frontend('mfe-trades', 'trades'), frontend('mfe-admin', 'admin')];

/** `{ listings: '…/mfe-listings/dist', … }`, as the edge takes them. */
export const remoteDists = () => Object.fromEntries(frontends.flatMap((f) => (f.remote ? [[f.remote, f.dist]] : [])));

export const shellDist = () => frontends.find((f) => !f.remote)!.dist;

/** Why `f` needs a build ('missing', 'older than <file>'), or undefined when its build is current. */
export function staleReason(f: Frontend): string | undefined {
  const built = statSync(f.marker, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return `no ${f.workspace}/dist yet`;
  const newest = newestSource(f.workspace);
  return newest && newest.mtimeMs > built ? `${newest.path} changed since its last build` : undefined;
}

// Not part of a build: tests, docs, outputs, dot files.
const skippedDirs = new Set(['node_modules', 'dist', 'test', 'tests', 'coverage']);
const skipped = /^\.|\.tsbuildinfo$|\.(test|spec)\.[cm]?[jt]sx?$|\.md$/;

/** The newest file of a workspace and of the workspaces it depends on (`packages/ui`…), outside node_modules and dist. */
function newestSource(workspace: string): { path: string; mtimeMs: number } | undefined {
  const dirs = workspaceDirs();
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies })) {
      const local = dirs.get(name);
      if (local) visit(local);
    }
  };
  visit(workspace);
  let newest: { path: string; mtimeMs: number } | undefined;
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(repoRoot, rel), { withFileTypes: true })) {
      if (skipped.test(entry.name) || (entry.isDirectory() && skippedDirs.has(entry.name))) continue;
      const path = join(rel, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const { mtimeMs } = statSync(join(repoRoot, path));
        if (!newest || mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
      }
    }
  };
  for (const dir of seen) walk(dir);
  return newest;
}

/** Package name → folder, for every workspace of the root package.json (`packages/*` style globs). */
function workspaceDirs(): Map<string, string> {
  const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const dirs = (root.workspaces ?? []).flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(repoRoot, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(pattern.slice(0, -2), d.name))
      : [pattern],
  );
  const map = new Map<string, string>();
  for (const dir of dirs) {
    const file = join(repoRoot, dir, 'package.json');
    if (existsSync(file)) map.set((JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name, dir);
  }
  return map;
}

export interface BuildOptions {
  /** Each build's output goes to `<logDir>/build-<workspace>.log`. */
  logDir: string;
  log: (line: string) => void;
  /** Called with each build process, so whoever stops the platform can stop it too. */
  onChild?: (child: ChildProcess) => void;
}

/**
 * Builds every frontend whose dist is missing or older than its sources, one after the other
 * (`npm run build -w <package>`: the workspace's own build, without the root's typecheck).
 */
export async function buildStaleFrontends(opts: BuildOptions): Promise<void> {
  for (const f of frontends) {
    const reason = staleReason(f);
    if (!reason) continue;
    opts.log(`building ${f.package} (${reason})…`);
    const started = performance.now();
    await build(f, opts);
    opts.log(`built ${f.package} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function build(f: Frontend, opts: BuildOptions): Promise<void> {
  mkdirSync(opts.logDir, { recursive: true });
  const logFile = join(opts.logDir, `build-${f.workspace}.log`);
  const log = createWriteStream(logFile);
  const tail: string[] = [];
  // What a developer's own `npm run build` gets, not the test runner's NODE_ENV=test.
  const { NODE_ENV: _nodeEnv, ...env } = process.env;
  const child = spawnChild('npm', ['run', 'build', '-w', f.package], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  opts.onChild?.(child);
  onOutputLines(child, (line) => {
    log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 30) tail.shift();
  });
  const result = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  await new Promise((resolve) => log.end(resolve));
  if (result.error) throw new Error(`npm run build -w ${f.package} did not start: ${result.error.message}`);
  if (result.code !== 0 || !existsSync(f.marker)) {
    const how = result.signal ? `stopped by ${result.signal}` : result.code === 0 ? `left no ${f.marker}` : `failed (exit code ${result.code})`;
    throw new Error(`npm run build -w ${f.package} ${how}; last output (${logFile}):\n    ${tail.join('\n    ')}`);
  }
}
