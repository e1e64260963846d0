// A load run: photos made, the platform's processes found, the members' accounts made (a few at a
// time: signing up is a one-off, and 300 at once is a registration storm no city sees), then the
// run: members arrive over the ramp, sign in and visit until the end; then the tables. `runLoad` is
// what `npm run load` and the smoke test call.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, isLoopbackHost, memberAddress } from './client.ts';
import { Member, World, type AcceptedChat } from './member.ts';
import { memberSeed, seededRandom } from './mix.ts';
import type { LoadOptions } from './options.ts';
import { makePhotos } from './photos.ts';
import { findPlatform, machineCpu, monitorProcesses, type ProcessUsage } from './procs.ts';
import { processTable, reasonList, stepTable } from './report.ts';
import { Recorder, type StepSummary } from './stats.ts';
import { REQUIRED_STEPS, STEP_ORDER } from './steps.ts';
import { measureTraces, TraceLog, type TraceShare } from './traces.ts';

export { MEMBER_PASSWORD, type AcceptedChat } from './member.ts';
export { readFlags } from './flags.ts';
export { parseOptions, type LoadOptions } from './options.ts';

/** A simulated member as the run leaves it: to sign in as afterwards (chaos's checks). */
export interface RunMember {
  id: string;
  email: string;
  premium: boolean;
}

export interface LoadHooks {
  /** The accounts are made and the members start arriving (chaos starts killing). */
  runStarted?(): void;
  /** A step failed (sign-up or run), as it happens. */
  onError?(step: string, reason: string): void;
}

export interface LoadResult {
  options: LoadOptions;
  /** Accounts made before the run (register, activation, Premium), a few at a time. */
  signUp: { seconds: number; steps: StepSummary[] };
  /** From the first member's arrival to the last one's end. */
  seconds: number;
  steps: StepSummary[];
  /** Sign-up and run together. */
  errors: number;
  errorReasons: ReadonlyMap<string, number>;
  refusalReasons: ReadonlyMap<string, number>;
  /** Required steps that never ran (the smoke run fails on them). */
  missing: string[];
  signedUp: number;
  signedIn: number;
  premium: number;
  /** Empty when the platform does not run on this machine (or could not be found). */
  processes: ProcessUsage[];
  /** This process (the members), in percent of one core. */
  generatorCpu: number;
  /** The whole machine over the run, in percent of all cores: others' work included. */
  machineBusy: number;
  cores: number;
  /** The members that signed up, and every chat message the platform accepted from them. */
  members: RunMember[];
  acceptedChats: AcceptedChat[];
  /** With `--traces`: the share of the run's requests that gave one complete trace. */
  traces?: TraceShare;
}

/** Accounts made at once before the run: sign-ups are a one-off, not what members do all day. */
const SIGN_UP_AT_ONCE = 6;

export async function runLoad(options: LoadOptions, log: (line: string) => void = () => {}, hooks: LoadHooks = {}): Promise<LoadResult> {
  const base = new URL(options.url);
  const probe = await fetch(new URL('/api/category', base)).catch((err: unknown) => {
    throw new Error(`no platform at ${base.origin}: ${(err as Error).message}`);
  });
  if (probe.status !== 200) throw new Error(`no platform at ${base.origin}: GET /api/category answered ${probe.status}`);
  await probe.body?.cancel();

  const world = new World(randomUUID().slice(0, 6));
  const photos = await makePhotos(6, seededRandom(options.seed));
  const platform = findPlatform(base);
  log(platform.length ? `platform processes: ${platform.map((p) => `${p.name} (${p.pid})`).join(', ')}` : 'the platform does not run on this machine (or was not found): no process table');
  const loopback = isLoopbackHost(base);
  const traceLog = options.traces ? new TraceLog() : undefined;
  const premiumEvery = options.premiumShare > 0 ? Math.max(1, Math.round(1 / options.premiumShare)) : 0;
  const members = Array.from(
    { length: options.members },
    (_, n) =>
      new Member({
        n,
        client: new Client(base, loopback ? memberAddress(n) : undefined, traceLog),
        rng: seededRandom(memberSeed(options.seed, n)),
        world,
        photos,
        thinkMs: options.thinkMs,
        photosMax: options.photosMax,
        premium: premiumEvery > 0 && n % premiumEvery === premiumEvery - 1,
      }),
  );

  // Before the run: the accounts, a few at a time.
  const signUpRecorder = new Recorder(hooks.onError);
  const signUpStarted = performance.now();
  const ready: Member[] = [];
  let next = 0;
  const signUps = Array.from({ length: Math.min(SIGN_UP_AT_ONCE, members.length) }, async () => {
    for (let m = members[next++]; m; m = members[next++]) {
      const ok = await m.signUp(signUpRecorder).catch((err: unknown) => void signUpRecorder.error('member', `stopped: ${(err as Error).stack ?? String(err)}`));
      if (ok) ready.push(m);
    }
  });
  const signUpProgress = setInterval(() => log(`signing up: ${ready.length}/${options.members}`), 15_000);
  signUpProgress.unref();
  await Promise.all(signUps);
  clearInterval(signUpProgress);
  const signUpSeconds = (performance.now() - signUpStarted) / 1000;
  log(`${ready.length}/${options.members} members signed up in ${signUpSeconds.toFixed(0)} s; the run starts`);

  // The run: members arrive over the ramp, sign in and visit until the end.
  const recorder = new Recorder(hooks.onError);
  const monitor = monitorProcesses(platform);
  const machine = machineCpu();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  hooks.runStarted?.();
  ready.sort((a, b) => a.n - b.n);
  const runs = ready.map((member, i) =>
    sleep((options.rampMs * i) / ready.length).then(() =>
      member.run(recorder, deadline).catch((err: unknown) => recorder.error('member', `stopped: ${(err as Error).stack ?? String(err)}`)),
    ),
  );
  const progress = setInterval(() => {
    const t = (performance.now() - started) / 1000;
    log(`${t.toFixed(0)} s: ${members.filter((m) => m.signedIn).length}/${ready.length} signed in, ${recorder.errors} errors`);
  }, options.smoke ? 10_000 : 30_000);
  progress.unref();
  await Promise.all(runs);
  clearInterval(progress);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const processes = monitor.stop();
  for (const m of members) m.close();
  const steps = recorder.summary(seconds, STEP_ORDER);
  const merged = (pick: (r: Recorder) => ReadonlyMap<string, number>) => {
    const out = new Map(pick(signUpRecorder));
    for (const [k, v] of pick(recorder)) out.set(k, (out.get(k) ?? 0) + v);
    return out;
  };
  const signUpSteps = signUpRecorder.summary(signUpSeconds, STEP_ORDER);
  let traces: TraceShare | undefined;
  if (options.traces && traceLog) {
    log(`asking Jaeger (${options.traces}) for the traces of ${traceLog.sent.length} requests`);
    traces = await measureTraces(options.traces, traceLog, { say: log });
  }
  return {
    options,
    signUp: { seconds: signUpSeconds, steps: signUpSteps },
    seconds,
    steps,
    errors: signUpRecorder.errors + recorder.errors,
    errorReasons: merged((r) => r.errorReasons),
    refusalReasons: merged((r) => r.refusalReasons),
    missing: REQUIRED_STEPS.filter((s) => ![...steps, ...signUpSteps].some((x) => x.step === s && x.count > 0)),
    signedUp: ready.length,
    signedIn: members.filter((m) => m.signedIn).length,
    premium: members.filter((m) => m.premium && m.signedIn).length,
    processes,
    generatorCpu: ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100,
    machineBusy: machine.stop(),
    cores: availableParallelism(),
    members: ready.filter((m) => m.id).map((m) => ({ id: m.id, email: m.email, premium: m.premium })),
    acceptedChats: world.acceptedChats,
    ...(traces && { traces }),
  };
}

/** The printed report: what ran, the step table, errors and refusals, the processes. */
export function formatResult(r: LoadResult): string {
  const o = r.options;
  const lines = [
    `Sign-up before the run: ${r.signedUp}/${o.members} accounts (register, activation mail, activation; Premium through the local checkout for ${Math.round(o.premiumShare * 100)} %), ${SIGN_UP_AT_ONCE} at a time, in ${r.signUp.seconds.toFixed(0)} s.`,
    '',
    stepTable(r.signUp.steps),
    '',
    `The run on ${new URL(o.url).origin}: ${r.signedIn} members signed in (${r.premium} with Premium), arriving over the first ${(o.rampMs / 1000).toFixed(0)} s of ${(o.seconds / 60).toFixed(1)} min, think time ${(o.thinkMs / 1000).toFixed(1)} s on average, seed ${o.seed}; ${r.seconds.toFixed(0)} s in all.`,
    '',
    stepTable(r.steps),
    '',
    `Errors: ${r.errors}.${r.errors ? `\n${reasonList(r.errorReasons)}` : ''}`,
  ];
  if (r.refusalReasons.size) lines.push(`Refused (races between members, shown to them in Dutch; not errors):\n${reasonList(r.refusalReasons)}`);
  if (r.missing.length) lines.push(`Never ran: ${r.missing.join(', ')}.`);
  lines.push('');
  if (r.processes.length) lines.push('The platform\'s processes during the run (a service with its own children; 100 % = one core):', '', processTable(r.processes), '');
  if (r.traces) {
    const t = r.traces;
    lines.push(
      `Traces: ${t.complete} of ${t.requests} requests (${t.percent.toFixed(2)} %) gave one complete trace (every span's parent in it), ${t.spans} spans, Jaeger asked for ${t.waitedSeconds.toFixed(0)} s.${t.reasons.size ? `\n${reasonList(t.reasons)}` : ''}`,
      '',
    );
  }
  lines.push(
    `Load generator (this process): ${r.generatorCpu.toFixed(1)} % of a core. Machine: ${r.machineBusy.toFixed(0)} % busy over ${r.cores} cores during the run (everything on it, not only the platform).`,
  );
  return lines.join('\n');
}
