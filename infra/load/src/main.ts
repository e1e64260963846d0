// `npm run load -- --members 300 --minutes 5`: simulated members against a running platform
// (`npm start`), then per step p50/p95/p99, throughput and errors, and the platform's processes.
// Exits 1 on any error, when a step the run needs never ran, or (with --traces) when fewer than
// 99 % of the requests gave one complete trace.
import { parseOptions, USAGE } from './options.ts';
import { formatResult, runLoad } from './run.ts';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
let options;
try {
  options = parseOptions(args);
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
const result = await runLoad(options, (line) => console.log(`[load] ${line}`)).catch((err: unknown) => {
  console.error(`[load] ${(err as Error).message}`);
  process.exit(2);
});
console.log(`\n${formatResult(result)}`);
// The traces goal (issue 25): at least 99 % of the requests give one complete trace.
const tracesShort = result.traces !== undefined && result.traces.percent < 99;
process.exit(result.errors > 0 || result.missing.length > 0 || tracesShort ? 1 : 0);
