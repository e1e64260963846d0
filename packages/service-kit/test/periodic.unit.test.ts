import { describe, expect, it, vi } from 'vitest';
import { startPeriodic } from '../src/periodic.ts';
import { silentLogger } from '../src/testing.ts';

describe('startPeriodic', () => {
  it('runs one round at a time, shares a round under way, and survives a failed round', async () => {
    let rounds = 0;
    let release!: () => void;
    const work = vi.fn(async () => {
      rounds++;
      if (rounds === 1) await new Promise<void>((resolve) => (release = resolve));
      if (rounds === 2) throw new Error('kapot');
      return rounds;
    });
    const job = startPeriodic({ intervalMs: 5, work, logger: silentLogger(), what: 'test' });
    const first = job.run();
    expect(job.run()).toBe(first); // the same round
    await new Promise((r) => setTimeout(r, 30)); // ticks while busy start nothing
    expect(work).toHaveBeenCalledTimes(1);
    release();
    expect(await first).toBe(1);
    await vi.waitFor(() => expect(rounds).toBeGreaterThanOrEqual(3)); // round 2 failed, the ticks went on
    await job.stop();
    const after = rounds;
    await new Promise((r) => setTimeout(r, 30));
    expect(rounds).toBe(after);
  });
});
