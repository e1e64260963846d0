import { metrics } from '@opentelemetry/api';
import { metrics as sdkMetrics } from '@opentelemetry/sdk-node';
import { AckPolicy } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropDeadLetters, listDeadLetters, main as deadletterCli, replayDeadLetters } from '../src/deadletter-cli.ts';
import {
  applyIfNewer,
  consume,
  createEvent,
  DEAD_LETTER_STREAM,
  deadLetterSubject,
  ensureStream,
  replaySubject,
  installKitGauges,
  PermanentError,
  publishEvent,
  type Worker,
} from '../src/index.ts';
import { silentLogger } from '../src/testing.ts';
import { sleep, testInfra, waitFor } from './helpers.ts';

const registry = {
  'kite.thing.taken': z.object({ n: z.number() }),
  'kite.thing.slow': z.object({ n: z.number() }),
  'kite.thing.held': z.object({ n: z.number() }),
  'kite.thing.first': z.object({ n: z.number() }),
  'kite.thing.second': z.object({ n: z.number() }),
  'kite.thing.third': z.object({ n: z.number() }),
  'kite.thing.deadly': z.object({ n: z.number() }),
  'kite.thing.replayed': z.object({ n: z.number() }),
  'kite.thing.again': z.object({ n: z.number() }),
};
const logger = silentLogger();
let infra: Awaited<ReturnType<typeof testInfra>>;
const workers: Worker[] = [];

beforeAll(async () => {
  infra = await testInfra('kit-events');
  await ensureStream(infra.bus, 'kite');
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await infra.close();
});

const claims = () => infra.db.collection<{ _id: string; state: string; owner?: string; at: Date; since?: Date; attempts?: number }>('consumed_events');

describe('claims', () => {
  it('waits out a claim whose holder stopped renewing it, then takes it over once', async () => {
    const event = createEvent(registry, 'kite.thing.taken', { n: 1 });
    const heldAt = new Date();
    // A replica claimed it and died without releasing.
    await claims().insertOne({ _id: `events-takeover:${event.id}`, state: 'processing', owner: 'dead-replica', at: heldAt, since: heldAt, attempts: 1 });
    const runs: number[] = [];
    const worker = await consume(infra.bus, {
      durable: 'events-takeover',
      registry,
      subjects: ['kite.thing.taken'],
      db: infra.db,
      logger,
      ackWaitMs: 800,
      handler: async (_event, msg) => {
        runs.push(Date.now());
        expect(msg.info.deliveryCount).toBeLessThanOrEqual(3); // one look, one delayed look after the takeover time
      },
    });
    workers.push(worker);
    await publishEvent(infra.bus, event);
    await waitFor(() => runs.length === 1);
    expect(runs[0]! - heldAt.getTime()).toBeGreaterThanOrEqual(800);
    await waitFor(async () => (await claims().findOne({ _id: `events-takeover:${event.id}` }))?.state === 'done');
    const claim = await claims().findOne({ _id: `events-takeover:${event.id}` });
    expect(claim).toMatchObject({ state: 'done', attempts: 2 });
    expect(claim?.owner).toBeUndefined();
    await sleep(300);
    expect(runs).toHaveLength(1);
  });

  it('keeps a slow handler alive, so it runs once and is not redelivered', async () => {
    let runs = 0;
    const worker = await consume(infra.bus, {
      durable: 'events-slow',
      registry,
      subjects: ['kite.thing.slow'],
      db: infra.db,
      logger,
      ackWaitMs: 600,
      handler: async () => {
        runs++;
        await sleep(1500); // two and a half ack waits
      },
    });
    workers.push(worker);
    // A redelivery would find the claim busy and be nak'ed: JetStream announces each nak.
    const naks: unknown[] = [];
    const advisories = infra.bus.nc.subscribe('$JS.EVENT.ADVISORY.CONSUMER.MSG_NAKED.kite.events-slow', { callback: (_e, m) => naks.push(m) });
    const event = createEvent(registry, 'kite.thing.slow', { n: 1 });
    await publishEvent(infra.bus, event);
    await waitFor(async () => (await claims().findOne({ _id: `events-slow:${event.id}` }))?.state === 'done');
    await sleep(600);
    advisories.unsubscribe();
    expect(runs).toBe(1);
    expect(naks).toHaveLength(0);
    expect((await infra.bus.jsm.consumers.info('kite', 'events-slow')).num_ack_pending).toBe(0);

    // A second copy of another event (published again past the duplicate window) arrives after
    // more than an ack wait: the renewed claim makes it wait, it does not take over.
    const other = createEvent(registry, 'kite.thing.slow', { n: 2 });
    await publishEvent(infra.bus, other);
    await waitFor(() => runs === 2);
    await sleep(800);
    await infra.bus.js.publish(other.type, JSON.stringify(other), { msgID: `${other.id}-again` });
    await waitFor(async () => (await infra.bus.jsm.consumers.info('kite', 'events-slow')).num_ack_pending === 0);
    expect(runs).toBe(2);
  });

  it('parks a copy on the dead-letter subject when another live handler holds its claim too long', async () => {
    const event = createEvent(registry, 'kite.thing.held', { n: 1 });
    const key = `events-held:${event.id}`;
    const since = new Date();
    await claims().insertOne({ _id: key, state: 'processing', owner: 'live-replica', at: since, since, attempts: 1 });
    // That replica is alive: it keeps renewing its claim.
    const renewing = setInterval(() => void claims().updateOne({ _id: key, owner: 'live-replica' }, { $set: { at: new Date() } }), 100);
    let runs = 0;
    try {
      const worker = await consume(infra.bus, {
        durable: 'events-held',
        registry,
        subjects: ['kite.thing.held'],
        db: infra.db,
        logger,
        ackWaitMs: 800,
        maxBusyMs: 1500,
        handler: async () => {
          runs++;
        },
      });
      workers.push(worker);
      await publishEvent(infra.bus, event);
      const [parked] = await waitForDeadLetters('events-held', 1);
      expect(parked).toMatchObject({ subject: 'kite.thing.held', eventId: event.id, eventType: 'kite.thing.held', durable: 'events-held' });
      expect(parked!.reason).toMatch(/^claim held by another handler for \d+ s$/);
      expect(parked!.deliveries).toBeGreaterThan(1);
    } finally {
      clearInterval(renewing);
    }
    expect(runs).toBe(0);
    expect(await claims().findOne({ _id: key })).toMatchObject({ owner: 'live-replica' }); // not ours to touch
    const info = await infra.bus.jsm.consumers.info('kite', 'events-held');
    expect(info.num_ack_pending).toBe(0); // terminated, not left to JetStream
  });

  it('parks an event whose handlers keep dying instead of running it forever', async () => {
    const event = createEvent(registry, 'kite.thing.deadly', { n: 1 });
    const long = new Date(Date.now() - 60_000);
    // Three owners took it and died (the process crashed inside the handler each time).
    await claims().insertOne({ _id: `events-deadly:${event.id}`, state: 'processing', owner: 'third-dead-replica', at: long, since: long, attempts: 3 });
    let runs = 0;
    workers.push(
      await consume(infra.bus, {
        durable: 'events-deadly',
        registry,
        subjects: ['kite.thing.deadly'],
        db: infra.db,
        logger,
        maxDeliver: 3,
        ackWaitMs: 1000,
        handler: async () => {
          runs++;
        },
      }),
    );
    await publishEvent(infra.bus, event);
    const [parked] = await waitForDeadLetters('events-deadly', 1);
    expect(parked).toMatchObject({ eventId: event.id, reason: 'handler did not finish in 3 attempts', attempts: 3 });
    expect(runs).toBe(0);
    // Forgotten, so a replay runs the handler afresh.
    await waitFor(async () => (await claims().findOne({ _id: `events-deadly:${event.id}` })) === null);
  });
});

async function waitForDeadLetters(durable: string, count: number) {
  let letters: Awaited<ReturnType<typeof listDeadLetters>> = [];
  await waitFor(async () => (letters = await listDeadLetters(infra.bus.nc, durable)).length >= count);
  return letters;
}

describe('durable consumer settings', () => {
  it('starts again after its subjects, concurrency and ack wait changed', async () => {
    const seen: string[] = [];
    const handler = async (event: { type: string }) => {
      seen.push(event.type);
    };
    const first = await consume(infra.bus, { durable: 'events-settings', registry, subjects: ['kite.thing.first'], db: infra.db, logger, concurrency: 1, handler });
    await publishEvent(infra.bus, createEvent(registry, 'kite.thing.first', { n: 1 }));
    await waitFor(() => seen.length === 1);
    await first.stop();

    const second = await consume(infra.bus, {
      durable: 'events-settings',
      registry,
      subjects: ['kite.thing.first', 'kite.thing.second'],
      db: infra.db,
      logger,
      concurrency: 3,
      ackWaitMs: 5000,
      handler,
    });
    workers.push(second);
    await publishEvent(infra.bus, createEvent(registry, 'kite.thing.second', { n: 2 }));
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual(['kite.thing.first', 'kite.thing.second']);
    const { config } = await infra.bus.jsm.consumers.info('kite', 'events-settings');
    expect(config).toMatchObject({ max_ack_pending: 12, max_deliver: -1, ack_wait: 5000 * 1e6 });
    // Its own events, and its replayed dead letters.
    expect(config.filter_subjects?.sort()).toEqual(['kite.replay.events-settings', 'kite.thing.first', 'kite.thing.second']);
  });

  it('recreates a consumer whose ack policy cannot change, resuming after its last ack', async () => {
    await infra.bus.jsm.consumers.add('kite', { durable_name: 'events-recreated', ack_policy: AckPolicy.All, filter_subjects: ['kite.thing.third'] });
    const old = createEvent(registry, 'kite.thing.third', { n: 10 });
    await publishEvent(infra.bus, old);
    const legacy = await infra.bus.js.consumers.get('kite', 'events-recreated');
    const msg = await legacy.next({ expires: 2000 });
    expect(msg?.json()).toMatchObject({ id: old.id });
    await msg!.ackAck();

    const fresh = createEvent(registry, 'kite.thing.third', { n: 11 });
    await publishEvent(infra.bus, fresh);
    const seen: string[] = [];
    const worker = await consume(infra.bus, {
      durable: 'events-recreated',
      registry,
      subjects: ['kite.thing.third'],
      db: infra.db,
      logger,
      handler: async (event) => {
        seen.push(event.id);
      },
    });
    workers.push(worker);
    await waitFor(() => seen.length === 1);
    await sleep(300);
    expect(seen).toEqual([fresh.id]);
    expect((await infra.bus.jsm.consumers.info('kite', 'events-recreated')).config.ack_policy).toBe(AckPolicy.Explicit);
  });
});

describe('versioned projections', () => {
  const items = () => infra.db.collection<{ _id: string; title: string; version?: number }>('items');

  it('ignores an older event that arrives after a newer one', async () => {
    expect(await applyIfNewer(items(), 'i1', 2, { title: 'tweede' })).toBe(true);
    expect(await applyIfNewer(items(), 'i1', 1, { title: 'eerste' })).toBe(false);
    expect(await applyIfNewer(items(), 'i1', 2, { title: 'tweede, opnieuw' })).toBe(false);
    expect(await items().findOne({ _id: 'i1' })).toEqual({ _id: 'i1', title: 'tweede', version: 2 });
    expect(await applyIfNewer(items(), 'i1', 3, { title: 'derde' })).toBe(true);
    expect(await items().findOne({ _id: 'i1' })).toEqual({ _id: 'i1', title: 'derde', version: 3 });
  });

  it('applies a newer version that loses the race to insert the document', async () => {
    const results = await Promise.all([applyIfNewer(items(), 'i2', 1, { title: 'een' }), applyIfNewer(items(), 'i2', 2, { title: 'twee' })]);
    expect(await items().findOne({ _id: 'i2' })).toEqual({ _id: 'i2', title: 'twee', version: 2 });
    expect(results[1]).toBe(true);
  });

  it('removes the fields a newer state no longer has, in the same write', async () => {
    expect(await applyIfNewer(items(), 'i4', 1, { title: 'met stad', city: 'Utrecht' })).toBe(true);
    expect(await applyIfNewer(items(), 'i4', 2, { title: 'zonder stad' }, { unset: ['city'] })).toBe(true);
    expect(await items().findOne({ _id: 'i4' })).toEqual({ _id: 'i4', title: 'zonder stad', version: 2 });
    expect(await applyIfNewer(items(), 'i4', 1, { title: 'oud', city: 'Delft' }, { unset: ['x'] })).toBe(false);
    expect(await items().findOne({ _id: 'i4' })).toEqual({ _id: 'i4', title: 'zonder stad', version: 2 });
  });

  it('applies to a document that has no version yet', async () => {
    await items().insertOne({ _id: 'i3', title: 'zonder versie' });
    expect(await applyIfNewer(items(), 'i3', 1, { title: 'met versie' })).toBe(true);
    expect(await items().findOne({ _id: 'i3' })).toEqual({ _id: 'i3', title: 'met versie', version: 1 });
  });
});

describe('dead letters', () => {
  it('lists parked messages and replays them to the consumer that parked them, and no other', async () => {
    let broken = true;
    const replayRuns: number[] = [];
    const otherRuns: number[] = [];
    workers.push(
      await consume(infra.bus, {
        durable: 'events-replay',
        registry,
        subjects: ['kite.thing.replayed'],
        db: infra.db,
        logger,
        handler: async (event) => {
          if (broken) throw new PermanentError('category does not exist yet');
          replayRuns.push(event.payload.n);
        },
      }),
      await consume(infra.bus, {
        durable: 'events-bystander',
        registry,
        subjects: ['kite.thing.replayed'],
        db: infra.db,
        logger,
        handler: async (event) => {
          otherRuns.push(event.payload.n);
        },
      }),
    );
    // A consumer of the same subject outside the kit (no claims to skip a copy by).
    await infra.bus.jsm.consumers.add('kite', { durable_name: 'events-raw', ack_policy: AckPolicy.Explicit, filter_subjects: ['kite.thing.replayed'] });
    const events = [1, 2].map((n) => createEvent(registry, 'kite.thing.replayed', { n }));
    for (const e of events) await publishEvent(infra.bus, e);

    const parked = await waitForDeadLetters('events-replay', 2);
    expect(parked.map((l) => l.eventId)).toEqual(events.map((e) => e.id));
    expect(parked[0]).toMatchObject({ durable: 'events-replay', subject: 'kite.thing.replayed', reason: 'category does not exist yet', attempts: 1 });
    await waitFor(() => otherRuns.length === 2);

    // Through the CLI as an operator runs it (NATS_URL with the test user's credentials).
    const lines: string[] = [];
    expect(await deadletterCli(['list', 'events-replay'], (l) => lines.push(l), { NATS_URL: infra.natsUrl })).toBe(0);
    expect(lines.join('\n')).toMatch(/kite\.thing\.replayed .*category does not exist yet/);
    expect(lines.join('\n').split('\n')).toHaveLength(3);

    // The kit's gauge counts them, observed through a real meter provider.
    const reader = new TestReader();
    metrics.disable();
    metrics.setGlobalMeterProvider(new sdkMetrics.MeterProvider({ readers: [reader] }));
    installKitGauges();
    expect(await gaugeValue(reader, 'ruilplein.deadletter.messages', { durable: 'events-replay' })).toBe(2);

    broken = false;
    // What a consumer was handed and has waiting: the replay must add to neither.
    const seen = async (durable: string) => {
      const info = await infra.bus.jsm.consumers.info('kite', durable);
      return { delivered: info.delivered.consumer_seq, pending: info.num_pending };
    };
    const before = { bystander: await seen('events-bystander'), raw: await seen('events-raw') };
    expect(before.raw).toEqual({ delivered: 0, pending: 2 }); // the two originals, never pulled
    const replayed = await replayDeadLetters(infra.bus.nc, 'events-replay');
    expect(replayed.map((l) => l.eventId)).toEqual(events.map((e) => e.id));
    await waitFor(() => replayRuns.length === 2);
    expect(replayRuns.sort()).toEqual([1, 2]);
    expect(await listDeadLetters(infra.bus.nc, 'events-replay')).toEqual([]);
    expect(await gaugeValue(reader, 'ruilplein.deadletter.messages', { durable: 'events-replay' })).toBe(0);
    const stream = await infra.bus.jsm.streams.info('kite', { subjects_filter: replaySubject('kite', 'events-replay') });
    expect(stream.state.subjects?.[replaySubject('kite', 'events-replay')]).toBe(2);

    // The other consumers of the subject were never handed the replayed copies, nor have them waiting.
    await sleep(300);
    expect(await seen('events-bystander')).toEqual(before.bystander);
    expect(await seen('events-raw')).toEqual(before.raw);
    expect(otherRuns.sort()).toEqual([1, 2]);
    const dead = await infra.bus.jsm.streams.info(DEAD_LETTER_STREAM, { subjects_filter: deadLetterSubject('events-replay') });
    expect(dead.state.subjects?.[deadLetterSubject('events-replay')] ?? 0).toBe(0);
    metrics.disable();
  });

  it('parks a replayed copy again under its first subject when it still fails, and drops parked messages', async () => {
    workers.push(
      await consume(infra.bus, {
        durable: 'events-again',
        registry,
        subjects: ['kite.thing.again'],
        db: infra.db,
        logger,
        handler: async () => {
          throw new PermanentError('still broken');
        },
      }),
    );
    const event = createEvent(registry, 'kite.thing.again', { n: 1 });
    await publishEvent(infra.bus, event);
    const [first] = await waitForDeadLetters('events-again', 1);
    await replayDeadLetters(infra.bus.nc, 'events-again');
    await waitFor(async () => (await listDeadLetters(infra.bus.nc, 'events-again')).some((l) => l.seq !== first!.seq));
    const [again] = await listDeadLetters(infra.bus.nc, 'events-again');
    expect(again).toMatchObject({ subject: 'kite.thing.again', eventId: event.id, reason: 'still broken' });

    const lines: string[] = [];
    expect(await deadletterCli(['drop', 'events-again'], (l) => lines.push(l), { NATS_URL: infra.natsUrl })).toBe(0);
    expect(lines).toEqual(['1 message(s) of events-again dropped']);
    expect(await dropDeadLetters(infra.bus.nc, 'events-again')).toEqual([]);
    expect(await listDeadLetters(infra.bus.nc, 'events-again')).toEqual([]);
  });
});

class TestReader extends sdkMetrics.MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

async function gaugeValue(reader: TestReader, name: string, attributes: Record<string, string>): Promise<number | undefined> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  const point = metric?.dataPoints.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v));
  return point?.value as number | undefined;
}
