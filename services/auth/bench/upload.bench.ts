// What 16 members uploading a 6300×6300 profile picture at the same moment cost the auth service:
// its peak memory (RSS) and the latency of each upload. Run with `npm run bench:upload`; it starts
// and stops its own stores and auth process (local mode, demo accounts). The service's log goes to
// .data/bench/upload/logs. `-- --concurrency N` sets IMAGE_CONCURRENCY (pictures decoded at once)
// for comparison; `--smoke` (services/auth/test/bench.int.test.ts): two small pictures, the same figures.
import { readFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEMO_MEMBERS, DEMO_PASSWORD } from '@ruilplein/contracts/demo';
import { runBench, type Bench } from '@ruilplein/local';
import sharp from 'sharp';

const { values: args } = parseArgs({ options: { concurrency: { type: 'string' }, smoke: { type: 'boolean', default: false } } });
const UPLOADS = args.smoke ? 2 : 16;
const SIDE = args.smoke ? 1000 : 6300;
const DEMO_ACCOUNTS = Object.values(DEMO_MEMBERS);

/** Resident and peak resident memory of a process, in MB (Linux: /proc). */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Distinct pictures under the 5 MB limit: PNG (decoded whole) and JPEG (shrunk while decoding) alternate. */
async function pictures(): Promise<{ data: Buffer; type: string; name: string }[]> {
  const out = [];
  for (let i = 0; i < UPLOADS; i++) {
    const background = { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 };
    const stripe = Buffer.from(
      `<svg width="${SIDE}" height="${SIDE}"><rect x="${(i * SIDE) / 21}" width="${SIDE / 10.5}" height="${SIDE}" fill="#fff"/><circle cx="${SIDE / 2}" cy="${SIDE / 2}" r="${(SIDE * (10 + i)) / 63}" fill="#222"/></svg>`,
    );
    const image = sharp({ create: { width: SIDE, height: SIDE, channels: 3, background } }).composite([{ input: stripe }]);
    const png = i % 2 === 0;
    const data = png ? await image.png({ compressionLevel: 9 }).toBuffer() : await image.jpeg({ quality: 80 }).toBuffer();
    if (data.length > 5 * 1024 * 1024) throw new Error(`picture ${i} is ${data.length} bytes, over the 5 MB limit`);
    out.push({ data, type: png ? 'image/png' : 'image/jpeg', name: png ? `foto-${i}.png` : `foto-${i}.jpg` });
  }
  return out;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main({ stores, logDir, service, createStreams }: Bench) {
  const files = await pictures();
  // Auth follows other services' streams (membership, counts): they exist without those services.
  await createStreams();
  const { url, child } = await service('auth', {
    RUILPLEIN_MODE: 'local',
    LOG_LEVEL: 'info',
    ...(args.concurrency && { IMAGE_CONCURRENCY: args.concurrency }),
    ...(process.env.MALLOC_ARENA_MAX && { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX }),
  });
  const pid = child.pid!;

  // Each upload as its own member (the demo accounts), so nothing but the pictures compete.
  const tokens = await Promise.all(
    Array.from({ length: UPLOADS }, async (_, i) => {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: DEMO_ACCOUNTS[i % DEMO_ACCOUNTS.length]!.email, password: DEMO_PASSWORD }),
      });
      if (!res.ok) throw new Error(`login failed: ${res.status}`);
      return ((await res.json()) as { token: string }).token;
    }),
  );
  const idle = await memory(pid);

  let sampledPeak = idle.rss;
  const sampler = setInterval(() => {
    memory(pid).then((m) => (sampledPeak = Math.max(sampledPeak, m.rss)), () => {});
  }, 50);
  const started = performance.now();
  const results = await Promise.all(
    files.map(async (file, i) => {
      const form = new FormData();
      form.set('firstName', 'Bench');
      form.set('lastName', `Lid ${i}`);
      form.set('profilePicture', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
      const t = performance.now();
      const res = await fetch(`${url}/api/user/update`, { method: 'PUT', headers: { authorization: `Bearer ${tokens[i]}` }, body: form });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - t };
    }),
  );
  const wall = performance.now() - started;
  // A smoke run must measure uploads, not refusals.
  if (args.smoke && results.some((r) => r.status >= 300)) throw new Error(`uploads answered ${results.map((r) => r.status).join(', ')}`);
  clearInterval(sampler);
  const after = await memory(pid);

  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = Object.entries(results.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');
  const sizes = files.map((f) => f.data.length / 1024 / 1024);
  console.log(
    [
      '',
      `profile picture uploads on ${cpus()[0]?.model ?? 'unknown CPU'} (${availableParallelism()} cores), store: ${stores.kind.mongo}, loopback`,
      `  ${UPLOADS} at once, ${SIDE}×${SIDE} px (${(SIDE * SIDE / 1e6).toFixed(1)} MP), PNG and JPEG alternating, ${Math.min(...sizes).toFixed(2)}–${Math.max(...sizes).toFixed(2)} MB each`,
      `  pictures decoded at once: ${args.concurrency ?? 'default (IMAGE_CONCURRENCY unset)'}`,
      `  answers: ${statuses}`,
      `  latency: p50 ${fmt(quantile(latencies, 0.5))}, p95 ${fmt(quantile(latencies, 0.95))}, max ${fmt(latencies.at(-1)!)}; all done in ${fmt(wall)}`,
      `  auth RSS: ${idle.rss.toFixed(0)} MB before (peak so far ${idle.peak.toFixed(0)} MB), peak ${Math.max(after.peak, sampledPeak).toFixed(0)} MB during, ${after.rss.toFixed(0)} MB after`,
      `  service log: ${join(logDir, 'auth.log')}`,
      '',
    ].join('\n'),
  );
}

await runBench('upload', ['auth'], main);
