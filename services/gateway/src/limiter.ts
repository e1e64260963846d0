// The gateway's per-client and per-user limits: counted in memory on every request, shared through
// Redis in batches. One Redis round trip per request cost the gateway as much as proxying itself;
// instead each key's hits are added to Redis at most every FLUSH_MS, and a request is refused when
// the last total Redis reported plus this gateway's hits since then reach the limit. Approximation
// and its bound: docs/decisions.md "How exact are the gateway's rate limits?".

/** The part of a Redis client the limiter uses. */
export interface LimiterStore {
  readonly isReady: boolean;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export interface LimiterOptions {
  store: LimiterStore;
  /** Prefix of the Redis keys: `<prefix>:<key>`. */
  prefix: string;
  points: number;
  windowSeconds: number;
  /** How long local hits wait before they are added to Redis. */
  flushMs?: number;
}

/** Adds each key's hits and starts its window on the first; answers count and ms left, per key. */
const ADD_HITS = `
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCRBY', key, ARGV[i + 1])
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, ARGV[1]) ttl = tonumber(ARGV[1]) end
  out[2 * i - 1] = n
  out[2 * i] = ttl
end
return out`;

export const FLUSH_MS = 100;
/** Keys per script call: a flood from many addresses must not become one huge command. */
const BATCH = 500;

interface Counter {
  key: string;
  /** Hits accepted here and not yet sent to Redis. */
  pending: number;
  /** Hits sent in the flush under way. */
  sending: number;
  /** The window's total as Redis last reported it (ours included), or counted here while Redis is away. */
  known: number;
  /** When the window ends, on `performance.now()`: a window is a duration, untouched by the platform clock. */
  resetAt: number;
}

export class SharedLimiter {
  readonly #store: LimiterStore;
  readonly #prefix: string;
  readonly #points: number;
  readonly #windowMs: number;
  readonly #flushMs: number;
  readonly #counters = new Map<string, Counter>();
  #dirty: Counter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #nextSweep = 0;

  constructor(options: LimiterOptions) {
    this.#store = options.store;
    this.#prefix = options.prefix;
    this.#points = options.points;
    this.#windowMs = options.windowSeconds * 1000;
    this.#flushMs = options.flushMs ?? FLUSH_MS;
  }

  /**
   * Counts a hit for `key` when it is within the limit and answers 0; otherwise counts nothing and
   * answers the seconds until the window ends (at least 1), for `Retry-After`. Never waits.
   */
  take(key: string, now = performance.now()): number {
    if (now >= this.#nextSweep) this.#sweep(now);
    let c = this.#counters.get(key);
    if (c === undefined) {
      c = { key, pending: 0, sending: 0, known: 0, resetAt: now + this.#windowMs };
      this.#counters.set(key, c);
    } else if (now >= c.resetAt) {
      // Hits still on their way to Redis count in whichever window they land in there.
      c.known = 0;
      c.resetAt = now + this.#windowMs;
    }
    if (c.known + c.sending + c.pending >= this.#points) return Math.max(1, Math.ceil((c.resetAt - now) / 1000));
    if (c.pending++ === 0) this.#dirty.push(c);
    this.#timer ??= setTimeout(() => void this.#flush(), this.#flushMs).unref();
    return 0;
  }

  /** Sends what is pending now and waits until Redis has it (tests). */
  async flush(): Promise<void> {
    this.stop();
    await this.#running;
    await this.#flush();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): Promise<void> {
    this.#timer = undefined;
    if (this.#running || this.#dirty.length === 0) return this.#running ?? Promise.resolve();
    const counters = this.#dirty;
    this.#dirty = [];
    const hits = counters.map((c) => {
      const n = c.pending;
      c.sending += n;
      c.pending = 0;
      return n;
    });
    this.#running = (async () => {
      for (let start = 0; start < counters.length; start += BATCH) {
        await this.#send(counters.slice(start, start + BATCH), hits.slice(start, start + BATCH));
      }
    })().finally(() => {
      this.#running = undefined;
      if (this.#dirty.length > 0) this.#timer ??= setTimeout(() => void this.#flush(), this.#flushMs).unref();
    });
    return this.#running;
  }

  async #send(counters: Counter[], hits: number[]): Promise<void> {
    let reply: number[] | undefined;
    if (this.#store.isReady) {
      try {
        const keys = counters.map((c) => `${this.#prefix}:${c.key}`);
        reply = (await this.#store.eval(ADD_HITS, { keys, arguments: [String(this.#windowMs), ...hits.map(String)] })) as number[];
      } catch {
        reply = undefined;
      }
    }
    const now = performance.now();
    counters.forEach((c, i) => {
      c.sending -= hits[i]!;
      if (reply) {
        c.known = Number(reply[2 * i]);
        c.resetAt = now + Number(reply[2 * i + 1]);
      } else {
        // Redis away: this gateway counts on its own until the window ends.
        c.known += hits[i]!;
      }
    });
  }

  /** Forgets keys whose window is over and that have nothing on its way. */
  #sweep(now: number) {
    this.#nextSweep = now + Math.max(this.#windowMs, 1000);
    for (const [key, c] of this.#counters) {
      if (c.resetAt <= now && c.pending === 0 && c.sending === 0) this.#counters.delete(key);
    }
  }
}
