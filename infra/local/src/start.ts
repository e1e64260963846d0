// `npm start`: the whole platform on this machine, see ARCHITECTURE.md "Running it".
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { styleText } from 'node:util';
import { bootstrap } from './bootstrap.ts';
import { onOutputLines, onStopSignal, spawnChild, stopChild } from './children.ts';
import { createEdge } from './edge.ts';
import { repoRoot } from './paths.ts';
import { startStores, type Stores } from './stores.ts';

const servicePorts: Record<string, number> = { gateway: 8100, auth: 8101, listing: 8102, trade: 8103, chat: 8104, moderation: 8105, payment: 8106 };
const domainServices = ['auth', 'listing', 'trade', 'chat', 'moderation', 'payment'];
const storePorts = { mongo: 27117, redis: 6479, nats: 4322 };
const edgePort = Number(process.env.PORT ?? 8080);
const dataDir = join(repoRoot, '.data');
const servicesDir = join(repoRoot, 'services');
const UP_WITHIN_MS = 60_000;

const say = (line: string) => console.log(`${styleText('bold', '[local]')} ${line}`);

interface Service {
  name: string;
  port: number;
  child: ChildProcess;
}

let stores: Stores | undefined;
let edge: Server | undefined;
const services: Service[] = [];
const edgeSockets = new Set<Socket>();
let stopping = false;

async function shutdown(code: number, why: string) {
  if (stopping) return; // a second Ctrl-C, or a service dying of the first, changes nothing
  stopping = true;
  say(why);
  if (edge) {
    // Upgraded websockets are no longer the http server's, so close() alone would wait for them.
    for (const socket of edgeSockets) socket.destroy();
    await new Promise((resolve) => edge?.close(resolve));
  }
  await Promise.all(services.map((s) => stopChild(s.child, 10_000)));
  await stores?.stop();
  say('stopped');
  process.exit(code);
}

function findServices(): string[] {
  const names = readdirSync(servicesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(servicesDir, d.name, 'src', 'main.ts')))
    .map((d) => d.name);
  for (const name of names.filter((n) => !servicePorts[n])) say(styleText('yellow', `services/${name}: no port in the table in infra/local/src/start.ts, not started`));
  return names.filter((n) => servicePorts[n]);
}

function startService(name: string, s: Stores) {
  const port = servicePorts[name]!;
  const upstreams = Object.fromEntries(domainServices.map((d) => [`UPSTREAM_${d.toUpperCase()}`, `http://127.0.0.1:${servicePorts[d]}`]));
  const child = spawnChild(process.execPath, ['src/main.ts'], {
    cwd: join(servicesDir, name),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: `${port}`,
      MONGODB_URL: s.mongoUrl,
      REDIS_URL: s.redisUrl,
      NATS_URL: s.natsUrl,
      AUTH_JWKS_URL: `http://127.0.0.1:${servicePorts.auth}/.well-known/jwks.json`,
      ...upstreams,
      RUILPLEIN_MODE: 'local',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
  });
  const prefix = styleText('cyan', `[${name}]`);
  onOutputLines(child, (line) => console.log(`${prefix} ${pretty(line)}`));
  child.once('exit', (code, signal) => {
    if (!stopping) void shutdown(1, styleText('red', `${name} exited unexpectedly (${signal ?? `code ${code}`}): stopping everything`));
  });
  services.push({ name, port, child });
}

async function listenEdge(): Promise<Server> {
  const server = createEdge({ gatewayUrl: `http://127.0.0.1:${servicePorts.gateway}`, staticDir: join(repoRoot, 'infra', 'local', 'public') });
  server.on('connection', (socket: Socket) => {
    edgeSockets.add(socket);
    socket.once('close', () => edgeSockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`port ${edgePort} is in use; stop what uses it or set PORT`) : err),
    );
    server.listen(edgePort, '127.0.0.1', resolve);
  });
  return server;
}

async function waitHealthy() {
  const deadline = Date.now() + UP_WITHIN_MS;
  let waiting = services;
  while (waiting.length) {
    const answers = await Promise.all(waiting.map((s) => healthy(s.port)));
    waiting = waiting.filter((_, i) => !answers[i]);
    if (!waiting.length) return;
    if (Date.now() > deadline) throw new Error(`no answer on /healthz within ${UP_WITHIN_MS / 1000} s from: ${waiting.map((s) => s.name).join(', ')}`);
    await sleep(300);
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

function printSummary(s: Stores) {
  const row = (...cells: string[]) => `  ${cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(i === 0 ? 12 : 14) : c)).join('')}`;
  console.log(
    [
      '',
      styleText(['bold', 'green'], `Ruilplein runs on http://localhost:${edgePort}`),
      ...(services.length ? services.map((svc) => row(svc.name, 'service', `http://127.0.0.1:${svc.port}`)) : [row('(none)', 'service', 'no services/*/src/main.ts yet')]),
      row('mongo', s.kind.mongo, s.mongoUrl),
      row('redis', s.kind.redis, s.redisUrl),
      row('nats', s.kind.nats, s.natsUrl),
      row('data', '', dataDir),
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

const levels: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const levelStyle: Record<string, Parameters<typeof styleText>[0]> = { WARN: 'yellow', ERROR: 'red', FATAL: 'red' };

/** A pino JSON line as `time LEVEL msg key=value…` (plus the stack of an `err`); other lines as they are. */
function pretty(line: string): string {
  if (!line.startsWith('{')) return line;
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, err, service: _service, pid: _pid, hostname: _hostname, traceId: _traceId, spanId: _spanId, ...rest } = entry;
  const label = levels[level as number] ?? String(level);
  const when = typeof time === 'string' ? time.slice(11, 23) : typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const fields = Object.entries(rest).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const stack = err && typeof err === 'object' && 'stack' in err ? `\n${String(err.stack)}` : '';
  return [styleText('dim', when), styleText(levelStyle[label] ?? 'reset', label.padEnd(5)), msg ?? '', ...fields].join(' ') + stack;
}

onStopSignal((signal) => void shutdown(0, `${signal}: stopping…`));
// `npm start` dies of a SIGTERM without passing it on; we notice by being handed to another parent.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && void shutdown(0, 'parent process gone: stopping…'), 1000).unref();

try {
  await bootstrap({ log: say });
  stores = await startStores({ dataDir, ports: storePorts, log: say });
  for (const name of findServices()) startService(name, stores);
  edge = await listenEdge();
  await waitHealthy();
  printSummary(stores);
} catch (err) {
  console.error(styleText('red', err instanceof Error ? err.message : String(err)));
  await shutdown(1, 'startup failed: stopping…');
}
