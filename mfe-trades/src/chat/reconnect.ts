// When the chat connects again (spec 2 §9: the seed's client reconnects after 0, 2, 10 and 30
// seconds, then stops) and what its state reads. Plain TypeScript, apart from React and socket.io,
// so the schedule is tested on its own (mfe-trades/test/reconnect.unit.test.ts).
import { CHAT_RECONNECT_DELAYS_MS } from '@ruilplein/contracts/browser';

export type HubState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

export const HUB_STATE_LABELS: Record<HubState, string> = {
  connecting: 'Verbinden…',
  connected: 'Verbonden',
  reconnecting: 'Opnieuw verbinden…',
  disconnected: 'Verbroken',
};

export interface ReconnectOptions {
  /** Makes one attempt; its outcome comes back through `connected()` or `lost()`. */
  open: () => void;
  onState: (state: HubState) => void;
  delays?: readonly number[];
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * The connection's schedule: `start()` tries at once ('Verbinden…'); every `lost()` (a failed
 * attempt or a dropped connection) waits the next delay and tries again ('Opnieuw verbinden…');
 * after the last delay it stops ('Verbroken') until `retryNow()`. A `connected()` starts the
 * delays over for the next loss.
 */
export class Reconnector {
  readonly #open: () => void;
  readonly #onState: (state: HubState) => void;
  readonly #delays: readonly number[];
  readonly #setTimer: (run: () => void, ms: number) => unknown;
  readonly #clearTimer: (timer: unknown) => void;
  #attempt = 0;
  #timer: unknown;
  #stopped = false;
  #state: HubState = 'connecting';

  constructor(options: ReconnectOptions) {
    this.#open = options.open;
    this.#onState = options.onState;
    this.#delays = options.delays ?? CHAT_RECONNECT_DELAYS_MS;
    this.#setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.#clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  get state(): HubState {
    return this.#state;
  }

  start(): void {
    this.retryNow();
  }

  /** By hand ('Opnieuw verbinden'): at once, with the whole schedule ahead again. */
  retryNow(): void {
    if (this.#stopped) return;
    this.#cancelTimer();
    this.#attempt = 0;
    this.#set('connecting');
    this.#open();
  }

  connected(): void {
    if (this.#stopped) return;
    this.#cancelTimer();
    this.#attempt = 0;
    this.#set('connected');
  }

  lost(): void {
    if (this.#stopped) return;
    this.#cancelTimer();
    const delay = this.#delays[this.#attempt];
    if (delay === undefined) return this.#set('disconnected');
    this.#attempt += 1;
    this.#set('reconnecting');
    this.#timer = this.#setTimer(() => {
      this.#timer = undefined;
      if (!this.#stopped) this.#open();
    }, delay);
  }

  /** Leaving the screen: no more tries. */
  stop(): void {
    this.#stopped = true;
    this.#cancelTimer();
  }

  #cancelTimer(): void {
    if (this.#timer !== undefined) this.#clearTimer(this.#timer);
    this.#timer = undefined;
  }

  #set(state: HubState): void {
    this.#state = state;
    this.#onState(state);
  }
}
