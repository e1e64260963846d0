// Podman (Debian's 4.3) and mmdebstrap: installed with apt-get when missing and root, as the
// bootstrap installs its Debian packages; every podman call goes through `podman()` below.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { onPath } from '../../local/src/paths.ts';

export class ImageError extends Error {}

/** The binaries `npm run images` needs and the Debian packages that bring them. */
const packages = [
  { bin: 'podman', pkg: 'podman' },
  // crun (podman's default on Debian) fails here on setrlimit and on hybrid cgroups: runc works.
  { bin: 'runc', pkg: 'runc' },
  { bin: 'mmdebstrap', pkg: 'mmdebstrap' },
];

/**
 * Global flags of every podman call: runc instead of crun, and the cgroupfs manager, as no systemd
 * runs here (CI containers, most dev VMs).
 */
export const podmanGlobalFlags = ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
/** Limits runc can set where the defaults (taken from a huge host limit) are refused. */
export const ulimits = ['--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096'];

export interface Out {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

export function exec(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; onLine?: (line: string) => void } = {}): Promise<Out> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-20_000);
      for (const line of c.toString().split('\n')) if (line.trim()) opts.onLine?.(line);
    });
    child.on('error', (err) => resolve({ ok: false, code: null, stdout, stderr: err.message }));
    child.on('close', (code) => resolve({ ok: code === 0, code, stdout, stderr }));
  });
}

export const podman = (args: string[], opts: Parameters<typeof exec>[2] = {}) => exec('podman', [...podmanGlobalFlags, ...args], opts);

export async function ensurePackages(log: (line: string) => void): Promise<void> {
  // /usr/sbin too: a non-login root shell may not have it on its PATH.
  const missing = packages.filter((p) => !onPath(p.bin) && !existsSync(`/usr/sbin/${p.bin}`));
  for (const p of packages) if (!missing.includes(p)) log(`${p.bin}: ok`);
  if (!missing.length) return;
  const pkgs = missing.map((p) => p.pkg).join(' ');
  if (process.getuid?.() !== 0 || !onPath('apt-get')) throw new ImageError(`${pkgs}: missing; install with \`sudo apt-get install -y ${pkgs}\` (Debian/Ubuntu)`);
  log(`${pkgs}: installing with apt-get …`);
  const r = await exec('sh', ['-c', `apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkgs} netavark ca-certificates`], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (!r.ok) throw new ImageError(`apt-get install ${pkgs} failed:\n${r.stderr.slice(-3000)}`);
  log(`${pkgs}: installed`);
}
