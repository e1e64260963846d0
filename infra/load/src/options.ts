// The command line of `npm run load`.
import { readFlags } from './flags.ts';

export interface LoadOptions {
  /** The platform's origin, as a browser reaches it. */
  url: string;
  members: number;
  /** The run's length; members arrive during its first fifth (rampMs) and stop at its end. */
  seconds: number;
  seed: number;
  /** Mean think time between a member's actions. */
  thinkMs: number;
  /** Members start spread over this long (arriving, not all at the same instant). */
  rampMs: number;
  /** Share of members that take Premium when they sign up. */
  premiumShare: number;
  /** Most photos a listing gets (each gets 1 to this many). */
  photosMax: number;
  smoke: boolean;
  /** With `--traces`: Jaeger's query API, asked after the run for every request's trace. */
  traces?: string;
}

/** Jaeger under `npm start` (infra/local stores.ts JAEGER_FIXED_PORTS). */
const JAEGER_URL = 'http://127.0.0.1:16686';

export const USAGE = `npm run load -- [--members 300] [--minutes 5] [--url http://localhost:8080] [--seed 25] [--think 5] [--premium 0.25] [--smoke] [--traces [URL]]
  --members N   simulated members (default 300)
  --minutes M   how long they visit (default 5; decimals allowed)
  --url U       the platform's origin (default http://localhost:8080)
  --seed S      the members' choices and think times (default 25)
  --think T     mean seconds a member thinks between actions (default 5)
  --premium P   share of members that take Premium at sign-up (default 0.25; smoke 0.5)
  --smoke       20 members for 30 seconds, 1 s think times, half with Premium, one photo a listing
                (npm test's smoke run)
  --traces [U]  give every request a trace of its own and afterwards ask Jaeger's query API
                (default ${JAEGER_URL}) for them: the share of complete traces (no orphan spans)`;

/** Parses the arguments; throws with a message for anything it does not know. */
export function parseOptions(argv: readonly string[]): LoadOptions {
  const flags = readFlags(argv, { switches: ['smoke'], values: ['members', 'minutes', 'url', 'seed', 'think', 'premium'], optional: ['traces'] });
  const smoke = flags.has('smoke');
  const number = flags.number;
  const traces = flags.has('traces') ? flags.text('traces') || JAEGER_URL : undefined;
  const members = number('members', smoke ? 20 : 300, (n) => Number.isInteger(n) && n >= 1 && n <= 60_000);
  const seconds = number('minutes', smoke ? 0.5 : 5, (n) => n > 0 && n <= 24 * 60) * 60;
  const url = flags.text('url') ?? 'http://localhost:8080';
  for (const [name, value] of [['url', url], ['traces', traces]] as const) {
    if (value === undefined) continue;
    try {
      new URL(value);
    } catch {
      throw new Error(`--${name}: ${value} is not a URL`);
    }
  }
  return {
    url,
    members,
    seconds,
    seed: number('seed', 25, Number.isInteger),
    thinkMs: number('think', smoke ? 1 : 5, (n) => n > 0 && n <= 600) * 1000,
    // Arriving over the first fifth of the run, at most a minute.
    rampMs: Math.min(60_000, seconds * 200),
    // A smoke run is short: more members with Premium, so more offers (every listing is new, see member.ts).
    premiumShare: number('premium', smoke ? 0.5 : 0.25, (n) => n >= 0 && n <= 1),
    // A smoke run checks that every step works, not the photo pipeline's capacity: one photo each.
    photosMax: smoke ? 1 : 3,
    smoke,
    ...(traces && { traces }),
  };
}
