// The platform's clock for rules that end by themselves: blocks, bans with an expiry, paid
// Premium periods, payments left open. Browser journeys and local demos move it forward instead of
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

/** Milliseconds since the epoch on the platform's clock. */
export const nowMs = (): number => Date.now() + currentOffset();

/** The platform's clock as a Date. */
export const now = (): Date => new Date(nowMs());
