// The load generator's pure parts: percentiles, the action mix, think times, the command line and
// what it reads from /proc. The whole run is tested against the platform by e2e/load-smoke.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { memberAddress } from '../src/client.ts';
import { ACTION_WEIGHTS, memberSeed, pickWeighted, seededRandom, thinkTime, type Action } from '../src/mix.ts';
import { parseOptions } from '../src/options.ts';
import { listeningInodes, parseStat } from '../src/procs.ts';
import { meetsGoal, stepTable } from '../src/report.ts';
import { percentile, Recorder } from '../src/stats.ts';
import { REQUIRED_STEPS } from '../src/steps.ts';
import { incompleteReason, isTracedPath, TraceLog, type JaegerTrace } from '../src/traces.ts';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('answers the value at or above the share of samples', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 51)).toBe(3);
  });

  it('takes the only sample for any percentile, the first for 0, and NaN for none', () => {
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([3, 9], 0)).toBe(3);
    expect(percentile([], 50)).toBeNaN();
  });

  it('the recorder sorts what it collected and counts errors, refusals and retries apart', () => {
    const r = new Recorder();
    for (const ms of [30, 10, 20, 40]) r.time('search.browse', ms);
    r.error('search.browse', '500 kapot');
    r.error('search.browse', '500 kapot');
    r.refused('offer.send', '400 weg');
    r.retried('chat.history');
    const [browse, history, send] = r.summary(2, ['search.browse', 'chat.history']);
    expect(browse).toMatchObject({ step: 'search.browse', count: 4, perSecond: 2, errors: 2, p50: 20, p99: 40, max: 40 });
    expect(history).toMatchObject({ step: 'chat.history', count: 0, retries: 1 });
    expect(send).toMatchObject({ step: 'offer.send', refused: 1, errors: 0 });
    expect(r.errors).toBe(2);
    expect(r.errorReasons.get('search.browse: 500 kapot')).toBe(2);
  });

  it('a step meets its goal only without errors and with p99 within it (uploads: 2 s)', () => {
    const base = { count: 10, perSecond: 1, errors: 0, refused: 0, retries: 0, p50: 100, p95: 300, max: 900 };
    expect(meetsGoal({ ...base, step: 'search.browse', p99: 500 })).toBe(true);
    expect(meetsGoal({ ...base, step: 'search.browse', p99: 501 })).toBe(false);
    expect(meetsGoal({ ...base, step: 'listing.create', p99: 1900 })).toBe(true);
    expect(meetsGoal({ ...base, step: 'search.browse', p99: 10, errors: 1 })).toBe(false);
    expect(meetsGoal({ ...base, step: 'signin.mail', p99: 5000 })).toBeNull();
    expect(stepTable([{ ...base, step: 'search.browse', p99: 501 }])).toMatch(/^search\.browse .* 501 +900 +500 +MISSED$/m);
  });
});

describe('the action mix', () => {
  const all = () => true;

  it('is the same for the same seed, and differs between members', () => {
    const draw = (seed: number) => {
      const rng = seededRandom(seed);
      return Array.from({ length: 20 }, () => pickWeighted(ACTION_WEIGHTS, all, rng));
    };
    expect(draw(memberSeed(25, 3))).toEqual(draw(memberSeed(25, 3)));
    expect(draw(memberSeed(25, 3))).not.toEqual(draw(memberSeed(25, 4)));
  });

  it('picks each action in proportion to its weight', () => {
    const rng = seededRandom(1);
    const counts = new Map<Action, number>();
    const draws = 100_000;
    for (let i = 0; i < draws; i++) {
      const a = pickWeighted(ACTION_WEIGHTS, all, rng)!;
      counts.set(a, (counts.get(a) ?? 0) + 1);
    }
    const total = Object.values(ACTION_WEIGHTS).reduce((a, b) => a + b, 0);
    for (const [action, weight] of Object.entries(ACTION_WEIGHTS) as [Action, number][]) {
      expect(Math.abs((counts.get(action) ?? 0) / draws - weight / total), action).toBeLessThan(0.01);
    }
  });

  it('never picks what cannot be done now, and nothing when nothing can', () => {
    const rng = seededRandom(2);
    const open = new Set<Action>(['browse', 'offer']);
    const seen = new Set(Array.from({ length: 2000 }, () => pickWeighted(ACTION_WEIGHTS, (a) => open.has(a), rng)));
    expect(seen).toEqual(open);
    expect(pickWeighted(ACTION_WEIGHTS, () => false, rng)).toBeUndefined();
    expect(pickWeighted({ a: 0, b: 0 }, all, rng)).toBeUndefined();
  });

  it('think times stay between a fifth and four times the mean and average near it', () => {
    const rng = seededRandom(3);
    const times = Array.from({ length: 50_000 }, () => thinkTime(5000, rng));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...times)).toBeLessThanOrEqual(20_000);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    expect(mean).toBeGreaterThan(4500);
    expect(mean).toBeLessThan(5500);
  });
});

describe('the command line', () => {
  it('defaults to 300 members for 5 minutes on localhost:8080', () => {
    expect(parseOptions([])).toMatchObject({ members: 300, seconds: 300, url: 'http://localhost:8080', thinkMs: 5000, rampMs: 60_000, premiumShare: 0.25, photosMax: 3, smoke: false });
  });

  it('--smoke is 20 members for 30 seconds; flags still win', () => {
    expect(parseOptions(['--smoke'])).toMatchObject({ members: 20, seconds: 30, thinkMs: 1000, rampMs: 6000, premiumShare: 0.5, photosMax: 1, smoke: true });
    expect(parseOptions(['--smoke', '--members=5'])).toMatchObject({ members: 5, seconds: 30 });
  });

  it('takes values after the flag or after =', () => {
    expect(parseOptions(['--members', '12', '--minutes=0.5', '--url', 'http://127.0.0.1:9000', '--seed', '7', '--think', '2', '--premium', '0.5'])).toMatchObject({
      members: 12,
      seconds: 30,
      url: 'http://127.0.0.1:9000',
      seed: 7,
      thinkMs: 2000,
      premiumShare: 0.5,
    });
  });

  it('refuses unknown flags and bad values', () => {
    expect(() => parseOptions(['--users', '3'])).toThrow('unknown option --users');
    expect(() => parseOptions(['--members', '0'])).toThrow('--members');
    expect(() => parseOptions(['--members'])).toThrow('needs a value');
    expect(() => parseOptions(['--url', 'nope'])).toThrow('not a URL');
  });

  it('--traces asks Jaeger under npm start, or the URL given', () => {
    expect(parseOptions([]).traces).toBeUndefined();
    expect(parseOptions(['--traces']).traces).toBe('http://127.0.0.1:16686');
    expect(parseOptions(['--traces', '--members', '3'])).toMatchObject({ traces: 'http://127.0.0.1:16686', members: 3 });
    expect(parseOptions(['--traces', 'http://127.0.0.1:9999']).traces).toBe('http://127.0.0.1:9999');
    expect(parseOptions(['--traces=http://127.0.0.1:9998']).traces).toBe('http://127.0.0.1:9998');
    expect(() => parseOptions(['--traces=nope'])).toThrow('not a URL');
  });

  it('the smoke run requires the issue\'s steps', () => {
    expect(REQUIRED_STEPS).toEqual(expect.arrayContaining(['signin.login', 'search.browse', 'search.keywords', 'wishlist.add', 'listing.create', 'offer.send', 'chat.delivery', 'offer.accept', 'offer.confirm', 'review.add']));
  });
});

describe('what is read from /proc', () => {
  it('a stat line: parent, CPU ticks and resident memory, whatever the name holds', () => {
    const fields = ['S', '41', ...Array.from({ length: 9 }, () => '0'), '150', '25', ...Array.from({ length: 8 }, () => '0'), '2560'];
    expect(parseStat(`1234 (node (main) x) ${fields.join(' ')} 0 0`)).toEqual({ pid: 1234, ppid: 41, ticks: 175, rssKb: 10_240 });
  });

  it('the sockets listening on a port (state 0A), not connected ones', () => {
    const text = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0',
      '   1: 0100007F:1F90 0200007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0 20 4 30 10 -1',
      '   2: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1 0 100 0 0 10 0',
    ].join('\n');
    expect(listeningInodes(text, 8080)).toEqual(['111']);
  });

  it('each member has its own loopback address', () => {
    const addresses = Array.from({ length: 600 }, (_, n) => memberAddress(n));
    expect(new Set(addresses).size).toBe(600);
    for (const a of addresses) expect(a).toMatch(/^127\.1\.\d+\.(?!0$|255$)\d+$/);
  });
});

describe('complete traces', () => {
  const log = new TraceLog();
  const header = log.header('GET', '/api/listing/6b08a947bc5abe20079db51b');
  const [{ traceId, parentSpanId, what }] = log.sent as [TraceLog['sent'][number]];
  const span = (spanID: string, parent?: string) => ({ spanID, references: parent ? [{ refType: 'CHILD_OF', traceID: traceId, spanID: parent }] : [] });
  const trace = (...spans: ReturnType<typeof span>[]): JaegerTrace => ({ traceID: traceId, spans });

  it('gives every traced request a sampled traceparent of its own', () => {
    expect(header).toBe(`00-${traceId}-${parentSpanId}-01`);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(what).toBe('GET /api/listing/:id');
    expect(isTracedPath('/api/listing')).toBe(true);
    expect(isTracedPath('/chathub/')).toBe(true);
    expect(isTracedPath('/dev/mail/messages.json')).toBe(false);
  });

  it('is complete with one span under the request and every other span\'s parent in the trace', () => {
    expect(incompleteReason(trace(span('e', parentSpanId), span('g', 'e'), span('s', 'g'), span('c', 's')), { parentSpanId })).toBeUndefined();
  });

  it('is not with an orphan, a second root, or nothing under the request', () => {
    expect(incompleteReason(undefined, { parentSpanId })).toBe('not in Jaeger');
    expect(incompleteReason(trace(span('e', parentSpanId), span('c', 'lost')), { parentSpanId })).toMatch(/^orphan span/);
    expect(incompleteReason(trace(span('e', parentSpanId), span('r')), { parentSpanId })).toMatch(/^orphan span/);
    expect(incompleteReason(trace(span('g', 'e')), { parentSpanId })).toMatch(/^orphan span/);
    expect(incompleteReason(trace(span('e', parentSpanId), span('f', parentSpanId)), { parentSpanId })).toBe('2 spans under the request');
  });
});
