// What a chaos run answers (run.ts), as the report prints it (report.ts).
import type { LoadResult } from '@ruilplein/load';
import type { InvariantResult } from './invariants.ts';
import type { KillResult } from './kills.ts';
import type { ChaosOptions } from './options.ts';

export interface ChaosResult {
  options: ChaosOptions;
  kills: KillResult[];
  /** Services that exited by themselves outside any kill's window. */
  otherCrashes: string[];
  invariants: InvariantResult[];
  load: LoadResult;
  /** Seconds from the end of the load to every outbox drained (undefined: not within the limit). */
  drainedSeconds?: number;
  /** Where the platform's logs are (kept when something failed, or with --keep). */
  dataDir: string;
  kept: boolean;
  /** Every invariant held and every part answered again. */
  ok: boolean;
}
