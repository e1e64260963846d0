// Chaos in `npm test` (issue 25): `npm run chaos -- --smoke`. It does not use the platform the other
// journeys share: it kills a part, so it starts one of its own (the runner's startPlatform, free
// ports, its own stores in a temp dir). 12 simulated members play for 45 seconds; trade is
// SIGKILLed under them and started again after 2 s; then, once the outbox relays have drained,
// every invariant is checked: no accepted chat message lost, every outbox entry published or
// parked with a reason, the projections equal to recounts of their sources (members, trade stats,
// listing counts, the search index, chat's offers), no offer in an impossible state, no
// notification twice. The table is printed for the log.
import { formatChaos, parseChaosOptions, runChaos } from '@ruilplein/chaos';
import { describe, expect, it } from 'vitest';

describe('chaos under a smoke load', () => {
  it('trade killed and started again: it answers within 10 s and every invariant holds', async () => {
    const result = await runChaos(parseChaosOptions(['--smoke']), (line) => console.log(`[chaos] ${line}`));
    console.log(formatChaos(result));
    expect(result.kills.map((k) => k.part)).toEqual(['trade']);
    const [trade] = result.kills;
    expect(trade!.answersMs, 'trade answers again (ms after its start)').toBeLessThanOrEqual(10_000);
    expect(trade!.wholeMs, 'every service ready again').toBeDefined();
    // Each error falls in the kill's window (from the kill to the end of the load): none before it.
    expect(result.load.errors - trade!.errors, 'errors before the kill').toBe(0);
    expect(result.invariants.filter((i) => !i.held).map((i) => `${i.name}: ${i.detail}`), 'invariants that did not hold').toEqual([]);
    expect(result.invariants).toHaveLength(9);
    // The run did what the invariants are about: members traded and chatted.
    expect(result.load.acceptedChats.length, 'chat messages accepted').toBeGreaterThan(0);
    expect(result.load.steps.find((s) => s.step === 'offer.send')?.count, 'offers sent').toBeGreaterThan(0);
    expect(result.ok).toBe(true);
  }, 240_000);
});
