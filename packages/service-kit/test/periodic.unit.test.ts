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

  it('rests restFactor times as long as a round took before the next one', async () => {
    const starts: number[] = [];
    const ends: number[] = [];
    const job = startPeriodic({
      intervalMs: 2,
      restFactor: 4,
      work: async () => {
        starts.push(performance.now());
        await new Promise((r) => setTimeout(r, 40));
        ends.push(performance.now());
      },
      logger: silentLogger(),
      what: 'test',
    });
    await vi.waitFor(() => expect(starts.length).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    await job.stop();
    for (let i = 1; i < starts.length; i++) {
      const took = ends[i - 1]! - starts[i - 1]!;
      // Timers may fire a little early; 10% slack.
      expect(starts[i]! - ends[i - 1]!).toBeGreaterThanOrEqual(4 * took * 0.9);
    }
  });

  it('pauses between pages in proportion to the work, skips ticks that are not due, and stops a pause at once', async () => {
    let due = false;
    let rounds = 0;
    const pages: number[] = [];
    const job = startPeriodic({
      intervalMs: 2,
      restFactor: 3,
      due: () => due,
      work: async (round) => {
        rounds++;
        for (let page = 0; page < 3 && !round.stopped; page++) {
          const t = performance.now();
          await new Promise((r) => setTimeout(r, 20));
          pages.push(performance.now() - t);
          await round.pace();
        }
      },
      logger: silentLogger(),
      what: 'test',
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(rounds).toBe(0); // never due
    const t = performance.now();
    await job.run();
    const worked = pages.reduce((a, b) => a + b, 0);
    expect(performance.now() - t).toBeGreaterThanOrEqual(worked * 4 * 0.9);

    due = true;
    await vi.waitFor(() => expect(rounds).toBe(2), { timeout: 5000 });
    const stopAt = performance.now();
    await job.stop(); // mid-round: its pause ends at once
    expect(performance.now() - stopAt).toBeLessThan(200);
  });
});
