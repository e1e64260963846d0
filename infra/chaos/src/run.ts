// A chaos run: the platform started as `npm start` starts it (the runner's startPlatform), but on
// free ports with stores of its own in a temp dir, so it never touches a running `npm start`; the
// load generator plays members; meanwhile every part is SIGKILLed in turn and started again; then,
// once the outbox relays have drained, the invariants. The runner acts as an orchestrator would: a
// service that exits by itself meanwhile (say, of a store gone) is started again after a second,
// and the table says so.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MEMBER_PASSWORD, parseOptions, runLoad, type RunMember } from '@ruilplein/load';
import { startPlatform, type Platform } from '@ruilplein/local/platform';
import { MongoClient } from 'mongodb';
import { checkInvariants, outboxResult, outboxState } from './invariants.ts';
import { killAndRestart, partsOf, platformWhole, type KillResult } from './kills.ts';
import { STORE_PARTS, type ChaosOptions } from './options.ts';
import type { ChaosResult } from './result.ts';

export { parseChaosOptions, type ChaosOptions } from './options.ts';
export { formatChaos } from './report.ts';
export type { ChaosResult } from './result.ts';


/** How long the relays get to publish what waits, and the consumers to apply it, after the load. */
const DRAIN_LIMIT_MS = 180_000;
const SETTLE_LIMIT_MS = 90_000;
/** The first kill once the members have arrived, at most this long into the run. */
const FIRST_KILL_MAX_MS = 30_000;

export async function runChaos(options: ChaosOptions, log: (line: string) => void = () => {}): Promise<ChaosResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-chaos-'));
  const crashes: Array<{ label: string; why: string; at: number; kill?: string }> = [];
  const killing = new Set<string>();
  let platform: Platform | undefined;
  let stopped = false;
  const onServiceExit = (label: string, why: string) => {
    const name = label.replace(/-\d+$/, '');
    if (stopped || killing.has(name)) return;
    crashes.push({ label, why, at: performance.now() });
    log(`${label} exited by itself (${why}): started again in 1 s`);
    setTimeout(() => {
      const service = platform?.services.find((s) => (s.replica === 1 ? s.name : `${s.name}-${s.replica}`) === label);
      if (!stopped && service) service.restart();
    }, 1000).unref();
  };
  let ok = false;
  try {
    log(`starting the platform (logs in ${join(dataDir, 'logs')})`);
    platform = await startPlatform({ dataDir, ports: 'free', build: false, envPrefix: false, log, onServiceExit, replicas: options.replicas });
    const parts = partsOf(platform);
    const order = options.kill.length ? options.kill : [...parts.keys()].filter((p) => !(STORE_PARTS as readonly string[]).includes(p)).concat(STORE_PARTS.filter((p) => parts.has(p)));
    const unknown = order.filter((p) => !parts.has(p));
    if (unknown.length) throw new Error(`cannot kill ${unknown.join(', ')}: the parts are ${[...parts.keys()].join(', ')}`);
    log(`platform up at ${platform.url}; will kill ${order.map((p) => parts.get(p)!.what).join(', ')}`);

    const loadOptions = parseOptions(['--members', String(options.members), '--minutes', String(options.minutes), '--url', platform.url, '--seed', String(options.seed), ...(options.smoke ? ['--think', '1', '--premium', '0.5'] : [])]);
    if (options.smoke) loadOptions.photosMax = 1;
    let runStarted!: () => void;
    const started = new Promise<void>((resolve) => (runStarted = resolve));
    let loadFailed = false;
    /** When each of the load's errors happened: counted per kill below. */
    const errorsAt: number[] = [];
    const loading = runLoad(loadOptions, (line) => log(`[load] ${line}`), { runStarted, onError: () => void errorsAt.push(performance.now()) });
    const kills: KillResult[] = [];
    const killing$ = (async () => {
      await Promise.race([started, loading.then(() => undefined, () => void (loadFailed = true))]);
      if (loadFailed) return;
      // Once members are signed in and busy: half the ramp, at most FIRST_KILL_MAX_MS.
      await sleep(Math.min(FIRST_KILL_MAX_MS, loadOptions.rampMs / 2 + 5000));
      for (const name of order) {
        const part = parts.get(name)!;
        killing.add(name);
        log(`kill ${part.what}`);
        const result = await killAndRestart(platform!, part, options.downMs);
        killing.delete(name);
        kills.push(result);
        const s = (ms: number | undefined) => (ms === undefined ? 'not back' : `${(ms / 1000).toFixed(1)} s`);
        log(`${name}: answers ${s(result.answersMs)} after its start, platform whole after ${s(result.wholeMs)}`);
        await sleep(options.gapMs);
        // What exited by itself after this kill (a service may die of it seconds later) is
        // started again by the supervisor above; the next kill waits until the platform is whole.
        for (const until = performance.now() + SETTLE_LIMIT_MS; !(await platformWhole(platform!)) && performance.now() < until; ) await sleep(250);
        for (const c of crashes.filter((c) => !c.kill)) c.kill = name;
        result.crashes = crashes.filter((c) => c.kill === name).map((c) => `${c.label} (${c.why})`);
        if (result.crashes.length) log(`after the ${name} kill, exited by themselves (started again): ${result.crashes.join(', ')}`);
      }
    })();
    const [load] = await Promise.all([loading, killing$]);
    const loadEnded = performance.now();
    kills.forEach((k, i) => (k.errors = errorsAt.filter((t) => t >= k.killedAt && t < (kills[i + 1]?.killedAt ?? loadEnded)).length));

    // The platform whole again, then the relays drained (a condition, not a fixed time).
    const mongo = new MongoClient(platform.stores.mongoUrl, { directConnection: true });
    try {
      for (const until = performance.now() + SETTLE_LIMIT_MS; !(await platformWhole(platform)) && performance.now() < until; ) await sleep(500);
      const databases = [...new Set(platform.services.map((s) => s.name))].filter((n) => n !== 'gateway');
      log('waiting for the outbox relays to drain');
      let state = await outboxState(mongo, databases);
      let drainedSeconds: number | undefined;
      for (const until = performance.now() + DRAIN_LIMIT_MS; ; ) {
        if (state.pending.size === 0) {
          drainedSeconds = (performance.now() - loadEnded) / 1000;
          break;
        }
        if (performance.now() > until) break;
        await sleep(1000);
        state = await outboxState(mongo, databases);
      }
      // Consumers apply what the relays published moments ago: the checks are asked again until
      // they hold or SETTLE_LIMIT_MS passes.
      const tokens = new Map<string, string>();
      const signIn = async (member: RunMember) => {
        const kept = tokens.get(member.id);
        if (kept) return kept;
        const res = await fetch(new URL('/api/auth/login', platform!.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: member.email, password: MEMBER_PASSWORD }),
        });
        if (res.status !== 200) throw new Error(`signing in as ${member.email}: ${res.status}`);
        const { token } = (await res.json()) as { token: string };
        tokens.set(member.id, token);
        return token;
      };
      const input = { mongo, databases, url: platform.url, members: load.members, acceptedChats: load.acceptedChats, signIn };
      log('checking the invariants');
      let invariants = await checkInvariants(input);
      for (const until = performance.now() + SETTLE_LIMIT_MS; invariants.some((i) => !i.held) && performance.now() < until; ) {
        await sleep(3000);
        invariants = await checkInvariants(input);
      }
      invariants = [outboxResult(state, drainedSeconds), ...invariants];
      const otherCrashes = crashes.filter((c) => !c.kill).map((c) => `${c.label} (${c.why})`);
      ok = invariants.every((i) => i.held) && kills.every((k) => k.answersMs !== undefined && k.wholeMs !== undefined);
      return { options, kills, otherCrashes, invariants, load, drainedSeconds, dataDir, kept: !ok || options.keep, ok };
    } finally {
      await mongo.close();
    }
  } finally {
    stopped = true;
    await platform?.stop();
    if (ok && !options.keep) await rm(dataDir, { recursive: true, force: true });
  }
}
