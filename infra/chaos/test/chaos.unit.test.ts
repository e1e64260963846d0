// Chaos's pure parts: the command line, each invariant's comparison (shown failing on made-up
// rows: a check that cannot fail proves nothing) and the kill table. The whole run, kills and
// checks against a real platform, is e2e/chaos-smoke.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import {
  duplicateNotifications,
  impossibleOffers,
  indexGaps,
  missingChats,
  outboxResult,
  projectionGaps,
  recountTotals,
  totalsGaps,
  unexplainedParked,
} from '../src/invariants.ts';
import { partsOf } from '../src/kills.ts';
import { parseChaosOptions } from '../src/options.ts';
import { killTable } from '../src/report.ts';

describe('the command line', () => {
  it('kills every part by default, one service in the smoke run', () => {
    expect(parseChaosOptions([])).toMatchObject({ members: 50, minutes: 5, kill: [], downMs: 3000, smoke: false });
    expect(parseChaosOptions(['--smoke'])).toMatchObject({ members: 12, kill: ['trade'], smoke: true });
    expect(parseChaosOptions(['--kill', 'chat, nats', '--down=1', '--members', '20'])).toMatchObject({ kill: ['chat', 'nats'], downMs: 1000, members: 20 });
  });

  it('runs the clustered mode with --replicas', () => {
    expect(parseChaosOptions([]).replicas).toBe(1);
    expect(parseChaosOptions(['--replicas', '2']).replicas).toBe(2);
    expect(() => parseChaosOptions(['--replicas', '0'])).toThrow(/--replicas/);
  });

  it('refuses what it does not know', () => {
    expect(() => parseChaosOptions(['--members', '1'])).toThrow(/--members/);
    expect(() => parseChaosOptions(['--kill', 'rm -rf'])).toThrow(/--kill/);
    expect(() => parseChaosOptions(['--slow'])).toThrow(/unknown option/);
  });
});

describe('the invariants', () => {
  it('chat: a message the sender saw accepted and the history lacks is lost', () => {
    const accepted = [
      { offerId: 1, senderId: 'AB', content: 'Hoi (x-1-1)' },
      { offerId: 1, senderId: 'ab', content: 'Tot dan (x-1-2)' },
    ];
    expect(missingChats(accepted, [{ offerId: 1, senderId: 'ab', content: 'Hoi (x-1-1)' }, { offerId: 1, senderId: 'ab', content: 'Tot dan (x-1-2)' }])).toEqual([]);
    // Same text in another chat, or from the other party, is not it.
    expect(missingChats(accepted, [{ offerId: 1, senderId: 'ab', content: 'Hoi (x-1-1)' }, { offerId: 2, senderId: 'ab', content: 'Tot dan (x-1-2)' }])).toEqual([accepted[1]]);
  });

  it('outbox: anything pending, or parked without a reason, fails', () => {
    expect(unexplainedParked({ _id: 'd', outboxParked: { e1: { reason: 'no stream takes x' }, e2: { reason: ' ' } }, mailOutboxParked: { m1: {} } })).toEqual(['d outboxParked.e2', 'd mailOutboxParked.m1']);
    expect(outboxResult({ pending: new Map(), parked: 2, unexplained: [] }, 3).held).toBe(true);
    expect(outboxResult({ pending: new Map([['trade.offers', 1]]), parked: 0, unexplained: [] }, undefined)).toMatchObject({ held: false, detail: expect.stringContaining('trade.offers: 1') });
    expect(outboxResult({ pending: new Map(), parked: 1, unexplained: ['x'] }, 1).held).toBe(false);
  });

  it('members: a projection missing a member or at another version than auth\'s', () => {
    const auth = new Map([['a', 3], ['b', 1]]);
    expect(projectionGaps(auth, new Map([['a', 3], ['b', 1], ['gone', 2]]))).toEqual([]);
    expect(projectionGaps(auth, new Map([['a', 2]]))).toEqual(['a v2 (auth v3)', 'b missing (auth v1)']);
  });

  it('trade stats: totals against a recount of completed offers and reviews', () => {
    const completed = [{ _id: 1, version: 4, senderId: 'A', receiverId: 'b', listingId: 'l1', status: 'Completed', senderConfirmed: true, receiverConfirmed: true }];
    const expected = recountTotals(['a', 'b', 'c'], completed, [{ revieweeId: 'B', rating: 4.5 }]);
    expect(expected.get('a')).toEqual({ totalTrades: 1, ratingSum: 0, totalReviewers: 0 });
    expect(expected.get('b')).toEqual({ totalTrades: 1, ratingSum: 4.5, totalReviewers: 1 });
    // No document is all zeros.
    expect(totalsGaps(expected, new Map([['a', { totalTrades: 1 }], ['b', { totalTrades: 1, ratingSum: 4.5, totalReviewers: 1 }]]), 'auth')).toEqual([]);
    expect(totalsGaps(expected, new Map([['b', { totalTrades: 2, ratingSum: 4.5, totalReviewers: 1 }]]), 'auth')).toHaveLength(2);
  });

  it('offers: completed without both confirmations, pending with one, a listing traded twice', () => {
    const offer = (id: number, status: string, s: boolean, r: boolean, listingId = `l${id}`) => ({ _id: id, version: 1, senderId: 'a', receiverId: 'b', listingId, status, senderConfirmed: s, receiverConfirmed: r });
    expect(impossibleOffers([offer(1, 'Completed', true, true), offer(2, 'Accepted', true, false), offer(3, 'Rejected', false, false)])).toEqual([]);
    expect(impossibleOffers([offer(1, 'Completed', true, false), offer(2, 'Pending', false, true), offer(3, 'Completed', true, true, 'l9'), offer(4, 'Completed', true, true, 'l9')])).toEqual([
      'offer 1 Completed without every confirmation',
      'offer 2 Pending with a confirmation',
      'listing l9 traded 2 times (offers 3, 4)',
    ]);
    // A swap chain is complete when every member confirmed.
    const chain = { ...offer(5, 'Completed', true, true), participants: [{ userId: 'a', confirmed: true }, { userId: 'b', confirmed: true }, { userId: 'c', confirmed: false }] };
    expect(impossibleOffers([chain])).toEqual(['offer 5 Completed without every confirmation']);
  });

  it('search: a listing the index lacks, or one it finds that is not listed', () => {
    expect(indexGaps(new Set(['l1', 'l2']), new Set(['l1', 'l2']))).toEqual([]);
    expect(indexGaps(new Set(['l1', 'l2']), new Set(['l1', 'l3']))).toEqual(['l2 listed but not found', 'l3 found but not listed']);
  });

  it('notifications: one event (member and source) twice', () => {
    expect(duplicateNotifications(['ab:00abc:o1v2', 'ab:00abd:o1v3', 'cd:00abc:o1v2'])).toEqual([]);
    expect(duplicateNotifications(['ab:00abc:o1v2', 'ab:00abf:o1v2'])).toEqual(['ab:o1v2 2 times']);
  });
});

describe('the kill table', () => {
  it('marks a part that answered too late or not at all', () => {
    const text = killTable(
      [
        { part: 'trade', what: 'trade: instance 1 of 2', killedAt: 0, errors: 0, downMs: 3000, answersMs: 2400, wholeMs: 2500, crashes: [] },
        { part: 'nats', what: 'nats', killedAt: 0, errors: 7, downMs: 3000, answersMs: 12_000, wholeMs: 15_000, crashes: ['chat (code 1)'] },
        { part: 'store', what: 'store', killedAt: 0, errors: 0, downMs: 3000, crashes: [] },
      ],
      10_000,
    );
    const [, , trade, nats, store] = text.split('\n');
    expect(trade).toMatch(/^trade: instance 1 of 2\s+3\.0\s+2\.4\s+2\.5\s+ok\s+0\s+-$/);
    expect(nats).toMatch(/MISSED\s+7\s+chat \(code 1\)$/);
    expect(store).toMatch(/not back\s+not back\s+MISSED/);
  });
});

describe('the parts to kill', () => {
  /** A platform as the runner describes it; what is killed and started is written down. */
  function platform(replicas: number, natsNodes: number) {
    const done: string[] = [];
    const services = ['trade', 'gateway'].flatMap((name) =>
      Array.from({ length: name === 'gateway' ? 1 : replicas }, (_, i) => ({
        name,
        replica: i + 1,
        url: `http://127.0.0.1:1/${name}-${i + 1}`,
        kill: async () => void done.push(`kill ${name}-${i + 1}`),
        restart: () => void done.push(`start ${name}-${i + 1}`),
      })),
    );
    const server = (name: string) => ({ running: () => true, kill: async () => void done.push(`kill ${name}`), start: async () => void done.push(`start ${name}`) });
    const nodes = Array.from({ length: natsNodes }, (_, i) => ({ name: `n${i + 1}`, ...server(`n${i + 1}`) }));
    const stores = {
      processes: { mongo: server('store'), redis: server('redis'), ...(natsNodes === 1 && { nats: server('nats') }) },
      ...(natsNodes > 1 && { natsCluster: { nodes } }),
    };
    return { platform: { services, stores } as unknown as Parameters<typeof partsOf>[0], done };
  }

  async function killAndStartAll(parts: ReturnType<typeof partsOf>) {
    for (const part of parts.values()) {
      await part.kill();
      await part.start();
    }
  }

  it('one instance: the service goes down, then NATS, Redis and the store', async () => {
    const { platform: p, done } = platform(1, 1);
    const parts = partsOf(p);
    expect([...parts.values()].map((x) => x.what)).toEqual(['trade', 'gateway', 'nats', 'redis', 'store']);
    await killAndStartAll(parts);
    expect(done).toEqual(['kill trade-1', 'start trade-1', 'kill gateway-1', 'start gateway-1', 'kill nats', 'start nats', 'kill redis', 'start redis', 'kill store', 'start store']);
  });

  it('clustered: one instance of a service goes down while the other serves, and one NATS node of three', async () => {
    const { platform: p, done } = platform(2, 3);
    const parts = partsOf(p);
    expect(parts.get('trade')!.what).toBe('trade: instance 1 of 2');
    expect(parts.get('nats')!.what).toBe('nats: node n1 of 3');
    await killAndStartAll(parts);
    expect(done.filter((d) => d.includes('trade'))).toEqual(['kill trade-1', 'start trade-1']);
    expect(done.filter((d) => /n\d/.test(d))).toEqual(['kill n1', 'start n1']);
  });
});

