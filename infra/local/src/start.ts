// `npm start`: the whole platform on this machine, see docs/architecture.md "Running".
import { join } from 'node:path';
import { parseArgs, styleText } from 'node:util';
import { bootstrap } from './bootstrap.ts';
import { onStopSignal } from './children.ts';
import { repoRoot } from './paths.ts';
import { instanceLabel, startPlatform, type Platform } from './platform.ts';

const dataDir = join(repoRoot, '.data');

/** `npm start -- --replicas 2`: the clustered mode (platform.ts `replicas`). */
function replicasArg(): number {
  const { values } = parseArgs({ options: { replicas: { type: 'string', default: '1' } }, strict: false });
  const replicas = Number(values.replicas);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
    console.error(styleText('red', `--replicas: expected a whole number from 1 to 5, got ${String(values.replicas)}`));
    process.exit(2);
  }
  return replicas;
}
const replicas = replicasArg();

const say = (line: string) => console.log(`${styleText('bold', '[local]')} ${line}`);

const starting = new AbortController();
let startup: Promise<Platform> | undefined;
let platform: Platform | undefined;
let stopping = false;

async function shutdown(code: number, why: string) {
  if (stopping) return; // a second Ctrl-C, or a service dying of the first, changes nothing
  stopping = true;
  say(why);
  // Still starting: startPlatform stops what it has started and rejects.
  starting.abort();
  await startup?.catch(() => {});
  await platform?.stop();
  say('stopped');
  process.exit(code);
}

/** The auth service logs the seeded admin once at start (local mode); the summary repeats it. */
let demoAdmin: { email: string; password: string } | undefined;
function noteDemoAdmin(name: string, line: string) {
  if (name !== 'auth' || !line.includes('"demo admin account"')) return;
  try {
    const { email, password } = JSON.parse(line) as { email?: unknown; password?: unknown };
    if (typeof email === 'string' && typeof password === 'string') demoAdmin = { email, password };
  } catch {
    // not a log line of ours
  }
}

function printSummary(p: Platform) {
  // The first column as wide as the longest instance label (`notification-2` in the clustered mode).
  const first = Math.max(12, ...p.services.map((svc) => instanceLabel(svc.name, svc.replica).length + 2));
  const row = (...cells: string[]) => `  ${cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(i === 0 ? first : 14) : c)).join('')}`;
  const s = p.stores;
  console.log(
    [
      '',
      styleText(['bold', 'green'], `Ruilplein runs on ${p.url}`),
      ...p.frontends.map((f) => row(f.remote ?? 'shell', 'frontend', `${f.remote ? `/mfe/${f.remote}/` : '/'} from ${f.workspace}/dist`)),
      ...(p.services.length
        ? p.services.map((svc) => row(instanceLabel(svc.name, svc.replica), 'service', svc.url))
        : [row('(none)', 'service', 'no services/*/src/main.ts yet')]),
      row('mongo', s.kind.mongo, s.mongoUrl),
      row('redis', s.kind.redis, s.redisUrl),
      row('nats', s.natsCluster ? `cluster of ${s.natsCluster.nodes.length}` : s.kind.nats, s.natsUrl.replace(/\/\/[^@/]*@/g, '//')),
      ...(p.jaeger ? [row('jaeger', 'traces', `${p.jaeger.url} (OTLP in: ${p.jaeger.otlpHttpUrl}, gRPC ${p.jaeger.ports.otlpGrpc}; in memory)`)] : []),
      row('data', '', `${p.dataDir} (logs in logs/)`),
      ...(demoAdmin
        ? [row('admin', 'login', `${demoAdmin.email} / ${demoAdmin.password} (demo members: same password)`), row('mail', 'outbox', `${p.url}/dev/mail`)]
        : []),
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
  const { level, time, msg, err, service: _service, pid: _pid, hostname: _hostname, trace_id: _traceId, span_id: _spanId, ...rest } = entry;
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
  startup = startPlatform({
    dataDir,
    ports: 'fixed',
    edgePort: Number(process.env.PORT ?? 8080),
    build: true,
    traces: true,
    replicas,
    log: say,
    onServiceLine: (name, line) => {
      noteDemoAdmin(name, line);
      console.log(`${styleText('cyan', `[${name}]`)} ${pretty(line)}`);
    },
    onServiceExit: (name, why) => void shutdown(1, styleText('red', `${name} exited unexpectedly (${why}): stopping everything`)),
    signal: starting.signal,
  });
  platform = await startup;
  printSummary(platform);
} catch (err) {
  if (!stopping) {
    console.error(styleText('red', err instanceof Error ? err.message : String(err)));
    await shutdown(1, 'startup failed: stopping…');
  }
}
