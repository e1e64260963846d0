// `npm run chaos -- --members 50 --minutes 5`: the platform under members' load while every part is
// SIGKILLed in turn and started again; then the invariants and the table (see run.ts).
// Exits 1 when an invariant fails or a part did not answer again, 2 on bad arguments.
import { parseChaosOptions, USAGE } from './options.ts';
import { formatChaos, runChaos } from './run.ts';

const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
let options;
try {
  options = parseChaosOptions(args);
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
const started = performance.now();
const at = () => ((performance.now() - started) / 1000).toFixed(0).padStart(4);
const result = await runChaos(options, (line) => console.log(`[chaos ${at()} s] ${line}`)).catch((err: unknown) => {
  console.error(`[chaos] ${(err as Error).stack ?? String(err)}`);
  process.exit(2);
});
console.log(`\n${formatChaos(result)}\n\nIn all ${((performance.now() - started) / 60_000).toFixed(1)} min.`);
process.exit(result.ok ? 0 : 1);
