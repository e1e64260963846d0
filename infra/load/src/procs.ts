// The platform's processes on this machine and what they use. A local platform (`npm start`, or
// the browser tests' e2e/setup.ts) is one runner process that owns the edge (it listens on the
// URL's port) with every store and service as its child (infra/local/src/children.ts spawns them,
// one process group each); a service runs `node src/main.ts` in services/<name>. So: the process
// listening on the port, its children named by what they run, each with its own descendants.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS = 100;
const PAGE_KB = 4;

export interface ProcStat {
  pid: number;
  ppid: number;
  /** User plus system time, in ticks. */
  ticks: number;
  rssKb: number;
}

/** One line of /proc/<pid>/stat (the name in parentheses may hold spaces and parentheses). */
export function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const pid = Number(text.slice(0, text.indexOf(' ')));
  // Fields after the name, from field 3 (state): ppid is 4, utime 14, stime 15, rss 24.
  const f = text.slice(close + 2).trim().split(/\s+/);
  const field = (n: number) => Number(f[n - 3]);
  return { pid, ppid: field(4), ticks: field(14) + field(15), rssKb: field(24) * PAGE_KB };
}

/**
 * The inodes of the sockets listening on `port` in /proc/net/tcp or tcp6 text (state 0A), on any
 * local address.
 */
export function listeningInodes(netTcp: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return netTcp
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 9 && f[1]!.endsWith(`:${hexPort}`) && f[3] === '0A')
    .map((f) => f[9]!);
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
const pids = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
const statOf = (pid: number) => {
  const text = read(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseStat(text);
};

/** The process that has a socket with one of these inodes open; undefined when none is visible to us. */
function ownerOfSockets(inodes: readonly string[]): number | undefined {
  const wanted = new Set(inodes.map((i) => `socket:[${i}]`));
  for (const pid of pids()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** What a process is, for the table: the service of its folder, or its program. */
function nameOf(pid: number): string {
  const comm = read(`/proc/${pid}/comm`)?.trim() ?? `pid ${pid}`;
  if (comm !== 'node' && comm !== 'MainThread') return comm;
  let cwd = '';
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    // gone
  }
  const service = /\/services\/([^/]+)$/.exec(cwd)?.[1];
  if (service) return service;
  const args = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
  const script = args.find((a) => /\.(ts|js|mjs)$/.test(a));
  return script ? `node ${basename(script)}` : comm;
}

export interface PlatformProcess {
  name: string;
  pid: number;
}

/**
 * The platform behind `url` when it runs on this machine: the runner (the edge's process) and each
 * of its children, named. Leaves out the branch this process is in (the browser tests run the load
 * in a worker the runner's process started). Empty when nothing on this machine listens there.
 */
export function findPlatform(url: URL): PlatformProcess[] {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const inodes = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => listeningInodes(read(file) ?? '', port));
  if (!inodes.length) return [];
  const runner = ownerOfSockets(inodes);
  if (runner === undefined) return [];
  const all = pids()
    .map(statOf)
    .filter((s): s is ProcStat => !!s);
  const ours = new Set<number>();
  for (let pid: number | undefined = process.pid; pid && pid !== runner; pid = all.find((s) => s.pid === pid)?.ppid) ours.add(pid);
  const children = all
    .filter((s) => s.ppid === runner && !ours.has(s.pid))
    .map((c) => ({ name: nameOf(c.pid), pid: c.pid }))
    // Under the browser tests the runner is vitest, whose own helpers are not the platform.
    .filter((c) => !c.name.startsWith('vitest'));
  return [{ name: 'edge + runner', pid: runner }, ...children];
}

export interface ProcessUsage {
  name: string;
  pid: number;
  /** Percent of one core, averaged over the run (100 = one core busy). */
  cpuAvg: number;
  /** The busiest sampling interval. */
  cpuMax: number;
  rssAvgMb: number;
  rssMaxMb: number;
}

interface Tracked extends PlatformProcess {
  first: number;
  last: number;
  lastAt: number;
  cpuMax: number;
  rss: number[];
}

/**
 * Samples CPU time and resident memory of each process with its descendants (a service's own
 * children count as the service) every `intervalMs`, from start to stop.
 */
export function monitorProcesses(processes: readonly PlatformProcess[], intervalMs = 2000) {
  const startedAt = performance.now();
  const tracked: Tracked[] = processes.map((p) => ({ ...p, first: NaN, last: NaN, lastAt: startedAt, cpuMax: 0, rss: [] }));
  const sample = () => {
    const all = pids()
      .map(statOf)
      .filter((s): s is ProcStat => !!s);
    const kids = new Map<number, ProcStat[]>();
    for (const s of all) kids.set(s.ppid, [...(kids.get(s.ppid) ?? []), s]);
    const now = performance.now();
    for (const t of tracked) {
      const self = all.find((s) => s.pid === t.pid);
      if (!self) continue;
      // The runner's children are tracked on their own; below the others, everything counts.
      const tree = t.name === 'edge + runner' ? [self] : descendants(self, kids);
      const ticks = tree.reduce((sum, s) => sum + s.ticks, 0);
      const rss = tree.reduce((sum, s) => sum + s.rssKb, 0);
      if (Number.isNaN(t.first)) t.first = ticks;
      else if (now > t.lastAt) t.cpuMax = Math.max(t.cpuMax, (((ticks - t.last) / TICKS) * 100_000) / (now - t.lastAt));
      t.last = ticks;
      t.lastAt = now;
      t.rss.push(rss / 1024);
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    stop(): ProcessUsage[] {
      clearInterval(timer);
      sample();
      const seconds = (performance.now() - startedAt) / 1000;
      return tracked
        .filter((t) => t.rss.length)
        .map((t) => ({
          name: t.name,
          pid: t.pid,
          cpuAvg: seconds > 0 ? (((t.last - t.first) / TICKS) * 100) / seconds : 0,
          cpuMax: t.cpuMax,
          rssAvgMb: t.rss.reduce((a, b) => a + b, 0) / t.rss.length,
          rssMaxMb: Math.max(...t.rss),
        }));
    },
  };
}

function descendants(root: ProcStat, kids: ReadonlyMap<number, ProcStat[]>): ProcStat[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]!.pid) ?? []));
  return out;
}

/** The whole machine's busy share over an interval (all cores; 100 = every core busy), from /proc/stat. */
export function machineCpu() {
  const busyIdle = () => {
    const cpu = (read('/proc/stat') ?? '').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    return { total: cpu.reduce((a, b) => a + b, 0), idle };
  };
  const start = busyIdle();
  return {
    stop(): number {
      const end = busyIdle();
      const total = end.total - start.total;
      return total > 0 ? (100 * (total - (end.idle - start.idle))) / total : NaN;
    },
  };
}
