// The kills: each part of the platform SIGKILLed as a crash, left down a few seconds, started again
// by the runner (infra/local: a service's `restart`, a store's process `start`), and timed until it
// answers again and until the whole platform does (every service's /readyz, Redis's PING).
import { createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Platform, RunningService } from '@ruilplein/local/platform';
import { STORE_PARTS, type StorePart } from './options.ts';

/** The goal: each part answers again within 10 s. */
export const ANSWER_GOAL_MS = 10_000;
/** Longer than this and the part counts as not back (the run goes on with the next). */
const GIVE_UP_MS = 90_000;

export interface Part {
  name: string;
  /** What goes down, for the table: `trade`, `trade: instance 1 of 2`, `nats: node n1 of 3`. */
  what: string;
  kill(): Promise<void>;
  /** Starts it again; resolves once started (a store: once it answers its protocol). */
  start(): Promise<void>;
  /** Whether it answers now: a service's /readyz (its store and NATS reachable), a store's protocol. */
  answers(): Promise<boolean>;
}

export interface KillResult {
  part: string;
  /** As Part's `what`. */
  what: string;
  /** When the SIGKILL went out (performance.now()): the start of its window in the load. */
  killedAt: number;
  /** The load's errors from this kill to the next one (or the end of the load): what members saw of it. */
  errors: number;
  /** From SIGKILL to the start again. */
  downMs: number;
  /** From the start again to the part answering; undefined: not within GIVE_UP_MS. */
  answersMs?: number;
  /** From the start again to every service's /readyz answering 200 and Redis answering. */
  wholeMs?: number;
  /** Services that exited by themselves from this kill to the next (restarted by the runner as an orchestrator would). */
  crashes: string[];
}

const STORE_OF: Record<StorePart, 'nats' | 'redis' | 'mongo'> = { nats: 'nats', redis: 'redis', store: 'mongo' };

export async function readyz(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Redis answers PING with +PONG (and -LOADING while it replays its file). */
export function redisAnswers(redisUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => done(chunk.toString('utf8').startsWith('+PONG')));
    socket.on('error', () => done(false));
  });
}

/**
 * The platform's parts in the order of the kills: each service (the gateway last), then NATS,
 * Redis and the store. One instance: it goes down and the service with it. Several (the clustered
 * mode): the first goes down while the others serve (the gateway passes over a refused one), and
 * NATS loses one node of its cluster. Only what this runner started as a local process can be killed.
 */
export function partsOf(platform: Platform): Map<string, Part> {
  const parts = new Map<string, Part>();
  // The domain services in the registry's order, then the gateway in front of them.
  const names = [...new Set(platform.services.map((s) => s.name))].sort((a, b) => Number(a === 'gateway') - Number(b === 'gateway'));
  for (const name of names) {
    const instances = platform.services.filter((s) => s.name === name);
    const victim = instances[0]!;
    parts.set(name, {
      name,
      what: instances.length > 1 ? `${name}: instance 1 of ${instances.length}` : name,
      kill: () => victim.kill(),
      start: async () => victim.restart(),
      answers: () => readyz(victim.url),
    });
  }
  for (const part of STORE_PARTS) {
    const server = platform.stores.processes[STORE_OF[part]];
    if (!server) continue;
    // start() resolves once the server answers its protocol; afterwards it still does while it runs.
    parts.set(part, { name: part, what: part, kill: () => server.kill(), start: () => server.start(), answers: async () => server.running() });
  }
  const cluster = platform.stores.natsCluster;
  const node = cluster?.nodes[0];
  if (cluster && node) {
    parts.set('nats', {
      name: 'nats',
      what: `nats: node ${node.name} of ${cluster.nodes.length}`,
      kill: () => node.kill(),
      start: () => node.start(),
      answers: async () => node.running(),
    });
  }
  return parts;
}

/** Every service answers /readyz and Redis answers PING. */
export async function platformWhole(platform: Platform): Promise<boolean> {
  const answers = await Promise.all([...platform.services.map((s: RunningService) => readyz(s.url)), redisAnswers(platform.stores.redisUrl)]);
  return answers.every(Boolean);
}

async function timeUntil(check: () => Promise<boolean>, from: number): Promise<number | undefined> {
  for (;;) {
    if (await check()) return performance.now() - from;
    if (performance.now() - from > GIVE_UP_MS) return undefined;
    await sleep(100);
  }
}

/** Kills `part`, waits `downMs`, starts it again and times it back (`errors` and `crashes` are the caller's to fill). */
export async function killAndRestart(platform: Platform, part: Part, downMs: number): Promise<KillResult> {
  const killedAt = performance.now();
  await part.kill();
  await sleep(downMs);
  const startedAt = performance.now();
  let answersMs: number | undefined;
  try {
    await part.start();
    answersMs = await timeUntil(() => part.answers(), startedAt);
  } catch {
    // Did not start: counted as not back; the next kill still happens.
  }
  const wholeMs = answersMs === undefined ? undefined : await timeUntil(() => platformWhole(platform), startedAt);
  return { part: part.name, what: part.what, killedAt, errors: 0, downMs: startedAt - killedAt, answersMs, wholeMs, crashes: [] };
}
