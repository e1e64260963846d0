import { describe, expect, it } from 'vitest';
import { HUB_STATE_LABELS, Reconnector, type HubState } from '../src/chat/reconnect.ts';

/** A Reconnector on a hand-driven clock: the delays asked for, the states shown, the attempts made. */
function harness() {
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const states: HubState[] = [];
  let attempts = 0;
  const reconnector = new Reconnector({
    open: () => {
      attempts += 1;
    },
    onState: (state) => states.push(state),
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const fire = () => {
    const timer = timers.filter((t) => !t.cleared).at(-1);
    if (!timer) throw new Error('no timer pending');
    timer.cleared = true;
    timer.run();
  };
  return { reconnector, timers, states, attempts: () => attempts, fire, labels: () => states.map((s) => HUB_STATE_LABELS[s]) };
}

describe('the chat reconnects as the seed’s client does (spec 2 §9)', () => {
  it('tries at once, then after 0, 2, 10 and 30 seconds, then stops: Verbroken', () => {
    const h = harness();
    h.reconnector.start();
    expect(h.attempts()).toBe(1);
    for (let i = 0; i < 4; i++) {
      h.reconnector.lost();
      h.fire();
    }
    expect(h.timers.map((t) => t.ms)).toEqual([0, 2_000, 10_000, 30_000]);
    expect(h.attempts()).toBe(5);
    h.reconnector.lost();
    expect(h.reconnector.state).toBe('disconnected');
    expect(h.timers).toHaveLength(4);
    expect(h.labels()).toEqual(['Verbinden…', 'Opnieuw verbinden…', 'Opnieuw verbinden…', 'Opnieuw verbinden…', 'Opnieuw verbinden…', 'Verbroken']);
  });

  it('a connection that comes back starts the delays over; a lost one is Opnieuw verbinden…', () => {
    const h = harness();
    h.reconnector.start();
    h.reconnector.connected();
    expect(h.reconnector.state).toBe('connected');
    h.reconnector.lost();
    h.fire();
    h.reconnector.lost();
    h.fire();
    h.reconnector.connected();
    h.reconnector.lost();
    expect(h.timers.map((t) => t.ms)).toEqual([0, 2_000, 0]);
    expect(h.reconnector.state).toBe('reconnecting');
  });

  it('by hand: at once and with the whole schedule again, also after Verbroken', () => {
    const h = harness();
    h.reconnector.start();
    for (let i = 0; i < 5; i++) {
      h.reconnector.lost();
      if (i < 4) h.fire();
    }
    expect(h.reconnector.state).toBe('disconnected');
    h.reconnector.retryNow();
    expect(h.reconnector.state).toBe('connecting');
    expect(h.attempts()).toBe(6);
    h.reconnector.lost();
    expect(h.timers.at(-1)?.ms).toBe(0);
  });

  it('retrying by hand while a try is scheduled cancels that one', () => {
    const h = harness();
    h.reconnector.start();
    h.reconnector.lost();
    h.fire();
    h.reconnector.lost(); // the 2 s wait
    h.reconnector.retryNow();
    expect(h.timers.at(-1)).toMatchObject({ ms: 2_000, cleared: true });
  });

  it('stopped (the screen left): no more tries', () => {
    const h = harness();
    h.reconnector.start();
    h.reconnector.lost();
    h.reconnector.stop();
    expect(h.timers[0]?.cleared).toBe(true);
    h.reconnector.lost();
    h.reconnector.retryNow();
    expect(h.attempts()).toBe(1);
    expect(h.timers).toHaveLength(1);
  });
});
