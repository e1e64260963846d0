// The platform's clock, the one time every service and the gateway read (a lint rule refuses
// Date.now() and new Date() elsewhere in services and the kit): for rules that end by themselves,
// such as suspensions (bans with an expiry), paid Premium periods, payments left open and the
// six-hour head start of new listings. Browser journeys and local demos move it instead of
// waiting: with RUILPLEIN_CLOCK_FILE set (local mode only; never in the charts) the file holds an
// offset in milliseconds, re-read at most every 200 ms, so every process of one platform agrees.
import { readFileSync } from 'node:fs';

const REREAD_MS = 200;
let offset = 0;
let readAt = -Infinity;

function currentOffset(): number {
  // Read each time, so a test may set it after this module loaded.
  const file = process.env.RUILPLEIN_CLOCK_FILE;
  if (!file) return 0;
  const t = performance.now();
  if (t - readAt < REREAD_MS) return offset;
  readAt = t;
  try {
    const value = Number(readFileSync(file, 'utf8').trim() || '0');
    offset = Number.isFinite(value) ? value : 0;
  } catch {
    offset = 0; // no file yet: no offset
  }
  return offset;
}

/**
 * Makes the next reading read the file again at once: for a test that moved the clock of the
 * services it runs in its own process (testing.ts `testClock`), which then need not wait.
 */
export function rereadClock(): void {
  readAt = -Infinity;
}

/** Milliseconds since the epoch on the platform's clock. */
export const nowMs = (): number => Date.now() + currentOffset();

/** The platform's clock as a Date. */
export const now = (): Date => new Date(nowMs());

/**
 * Real time, never moved: only for times another party checks against its own clock, a JWT's
 * `iat`/`exp` (jose, the gateway) and JetStream start positions (NATS stamps messages with it).
 */
export const wallClockMs = (): number => Date.now();
