import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  connectBus,
  consume,
  createEvent,
  ensureStream,
  observeKitGauge,
  outboxFields,
  packedOutboxDocument,
  PARKED,
  parkedOutboxEntries,
  PENDING,
  publishEvent,
  startOutboxRelay,
  type OutboxEntry,
  type ParkedOutboxEntry,
} from '../src/index.ts';
import { listParkedOutbox, main as deadletterCli } from '../src/deadletter-cli.ts';
import { silentLogger } from '../src/testing.ts';
import { testInfra, waitFor } from './helpers.ts';

const registry = { 'kito.offer.accepted': z.object({ offerId: z.string() }) };
const logger = silentLogger();
let infra: Awaited<ReturnType<typeof testInfra>>;

beforeAll(async () => {
  infra = await testInfra('kit-outbox');
  await ensureStream(infra.bus, 'kito');
});
afterAll(() => infra.close());

type Offer = { _id: string; status: string; outbox?: Record<string, OutboxEntry>; outboxPending?: true; outboxParked?: Record<string, ParkedOutboxEntry> };
const offers = () => infra.db.collection<Offer>('offers');

/** Every event the stream holds for an offer, read through a durable consumer like a real subscriber. */
async function received(durable: string) {
  const seen: EventEnvelope[] = [];
  const worker = await consume(infra.bus, {
    durable,
    registry,
    subjects: ['kito.offer.accepted'],
    db: infra.db,
    logger,
    handler: async (event) => {
      seen.push(event);
    },
  });
  return { seen, stop: () => worker.stop() };
}

describe('outbox', () => {
  it('delivers an event once when the process died between the write and the publish', async () => {
    await offers().insertOne({ _id: 'o1', status: 'Pending' });
    const child = spawn(process.execPath, [fileURLToPath(new URL('fixtures/outbox-writer.ts', import.meta.url))], {
      env: { ...process.env, MONGODB_URL: infra.mongoUrl, DB_NAME: infra.dbName },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const signal = await new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    expect(signal).toBe('SIGKILL');
    const { eventId, modified } = JSON.parse(out);
    expect(modified).toBe(1);

    const doc = await offers().findOne({ _id: 'o1' });
    expect(doc?.status).toBe('Accepted');
    expect(Object.keys(doc?.outbox ?? {})).toEqual([eventId]);
    expect((await infra.bus.jsm.streams.info('kito')).state.messages).toBe(0);

    const sub = await received('outbox-kill');
    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger });
    await waitFor(() => sub.seen.length === 1);
    await relay.stop();
    expect(sub.seen[0]).toMatchObject({ id: eventId, type: 'kito.offer.accepted', payload: { offerId: 'o1' } });
    expect(await offers().countDocuments(PENDING)).toBe(0);

    // A restarted relay finds nothing left to publish.
    const again = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger });
    await again.flush();
    await again.stop();
    expect((await infra.bus.jsm.streams.info('kito')).state.messages).toBe(1);
    await sub.stop();
    expect(sub.seen).toHaveLength(1);
  });

  it('does not deliver twice when the relay died after publishing but before clearing', async () => {
    const event = createEvent(registry, 'kito.offer.accepted', { offerId: 'o2' });
    await offers().insertOne({ _id: 'o2', status: 'Accepted', outbox: { [event.id]: { event, trace: {} } } });
    const before = (await infra.bus.jsm.streams.info('kito')).state.messages;
    await publishEvent(infra.bus, event); // the relay's publish, whose clear never happened

    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger });
    await relay.flush();
    await relay.stop();
    expect(await offers().countDocuments(PENDING)).toBe(0);
    expect((await infra.bus.jsm.streams.info('kito')).state.messages).toBe(before + 1);
  });

  it('queues an event only when the conditional state change happened', async () => {
    await offers().insertOne({ _id: 'o3', status: 'Pending' });
    const accept = () => {
      const event = createEvent(registry, 'kito.offer.accepted', { offerId: 'o3' });
      return offers().updateOne({ _id: 'o3', status: 'Pending' }, { $set: { status: 'Accepted', ...outboxFields(event) } });
    };
    const results = await Promise.all([accept(), accept()]);
    expect(results.map((r) => r.modifiedCount).sort()).toEqual([0, 1]);
    const doc = await offers().findOne({ _id: 'o3' });
    expect(Object.keys(doc?.outbox ?? {})).toHaveLength(1);
  });

  it('publishes a kicked document by its id alone, and the rest on the next full pass', async () => {
    const sub = await received('outbox-kicked');
    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger, intervalMs: 60_000 });
    await relay.flush();
    const [quiet, kicked] = ['k1', 'k2'].map((offerId) => createEvent(registry, 'kito.offer.accepted', { offerId }));
    await offers().insertMany([
      { _id: 'k1', status: 'Accepted', ...unflatten(outboxFields(quiet!)) },
      { _id: 'k2', status: 'Accepted', ...unflatten(outboxFields(kicked!)) },
    ]);
    relay.kick('offers', 'k2');
    await waitFor(() => sub.seen.some((e) => e.id === kicked!.id));
    expect(await offers().countDocuments({ _id: 'k2', ...PENDING })).toBe(0);
    expect(await offers().countDocuments({ _id: 'k1', ...PENDING })).toBe(1); // a kick reads only its document
    await relay.flush();
    await waitFor(() => sub.seen.some((e) => e.id === quiet!.id));
    expect(await offers().countDocuments({ _id: 'k1', ...PENDING })).toBe(0);
    await relay.stop();
    await sub.stop();
  });

  it('publishes a kicked document while a long full pass is still going', async () => {
    const backlog = infra.db.collection<Offer>('backlog');
    const events = Array.from({ length: 300 }, (_, i) => createEvent(registry, 'kito.offer.accepted', { offerId: `b${String(i).padStart(3, '0')}` }));
    await backlog.insertMany(events.map((event, i) => ({ _id: `b${String(i).padStart(3, '0')}`, status: 'Accepted', ...unflatten(outboxFields(event)) })));
    const sub = await received('outbox-lanes');
    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['backlog'], logger, intervalMs: 60_000 });
    // The first full pass works through the backlog in _id order; a document sorting after all of
    // it is written and kicked once that pass is under way.
    // The stream also holds the earlier tests' events: only this test's count.
    const ours = new Set(events.map((e) => e.id));
    const seen = () => sub.seen.filter((e) => ours.has(e.id));
    await waitFor(() => seen().length > 0);
    const urgent = createEvent(registry, 'kito.offer.accepted', { offerId: 'z-urgent' });
    ours.add(urgent.id);
    await backlog.insertOne({ _id: 'z-urgent', status: 'Accepted', ...unflatten(outboxFields(urgent)) });
    relay.kick('backlog', 'z-urgent');
    await waitFor(() => seen().length === 301, 20_000);
    const position = seen().findIndex((e) => e.id === urgent.id);
    expect(position, 'published before the full pass reached the end of the backlog').toBeLessThan(250);
    await relay.stop();
    await sub.stop();
  });

  it('parks an entry that can never be published without holding back the others', async () => {
    const good = [1, 2, 3].map((n) => createEvent(registry, 'kito.offer.accepted', { offerId: `p${n}` }));
    // A subject no stream takes (JetStream: no responders), and a payload over NATS's 1 MB limit.
    const nowhere = { ...createEvent(registry, 'kito.offer.accepted', { offerId: 'p1' }), type: 'kitonowhere.offer.accepted' };
    const huge = createEvent(registry, 'kito.offer.accepted', { offerId: 'x'.repeat(1_200_000) });
    await offers().insertMany([
      { _id: 'p1', status: 'Accepted', ...unflatten(outboxFields(nowhere, good[0]!)) },
      { _id: 'p2', status: 'Accepted', ...unflatten(outboxFields(good[1]!)) },
      { _id: 'p3', status: 'Accepted', ...unflatten(outboxFields(huge, good[2]!)) },
    ]);
    const sub = await received('outbox-poison');
    // Passes only when the test asks (no timer), so the attempts are counted by the test's flushes.
    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger, intervalMs: 60_000, retryIntervalMs: 60_000, maxAttempts: 3, retryDelayMs: () => 0 });
    await relay.flush();
    await waitFor(() => sub.seen.filter((e) => (e.payload as { offerId: string }).offerId.startsWith('p')).length === 3);
    expect((await offers().findOne({ _id: 'p1' }))?.outbox?.[nowhere.id]).toMatchObject({ lastError: 'no stream takes kitonowhere.offer.accepted (no responders)' });

    await waitFor(async () => {
      await relay.flush();
      return (await offers().countDocuments(PENDING)) === 0;
    });
    const p1 = await offers().findOne({ _id: 'p1' });
    expect(p1?.outbox).toBeUndefined();
    expect(p1?.outboxPending).toBeUndefined();
    expect(p1?.outboxParked?.[nowhere.id]).toMatchObject({ event: { id: nowhere.id }, attempts: 3, reason: 'no stream takes kitonowhere.offer.accepted (no responders)' });
    const parked = await parkedOutboxEntries(offers() as never);
    expect(parked.map((p) => [p.docId, p.id])).toEqual(expect.arrayContaining([['p1', nowhere.id], ['p3', huge.id]]));
    expect(parked.find((p) => p.id === huge.id)?.entry.reason).toMatch(/payload/i);
    expect(await offers().countDocuments(PARKED)).toBe(2);

    const gauge = async (name: 'ruilplein.outbox.pending' | 'ruilplein.outbox.parked') =>
      (await observeKitGauge(name)).flat().find((o) => o.attributes.collection === 'offers')?.value;
    expect(await gauge('ruilplein.outbox.parked')).toBe(2);
    expect(await gauge('ruilplein.outbox.pending')).toBe(0);
    await relay.stop();
    await sub.stop();
    expect(sub.seen.filter((e) => (e.payload as { offerId: string }).offerId.startsWith('p')).map((e) => e.id).sort()).toEqual(good.map((e) => e.id).sort());
  });

  it('lists parked entries and, once the cause is gone, replays them through the relay (the deadletter CLI)', async () => {
    const late = { ...createEvent(registry, 'kito.offer.accepted', { offerId: 'l1' }), type: 'kitolate.offer.accepted' };
    const fine = createEvent(registry, 'kito.offer.accepted', { offerId: 'l1' });
    await offers().insertOne({ _id: 'l1', status: 'Accepted', ...unflatten(outboxFields(late, fine)) });
    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger, intervalMs: 60_000, maxAttempts: 2, retryDelayMs: () => 0 });
    await waitFor(async () => {
      await relay.flush();
      return (await offers().findOne({ _id: 'l1' }))?.outboxParked?.[late.id] !== undefined;
    });

    // As an operator runs it: the service's database is named after it.
    const cli = async (...args: string[]) => {
      const lines: string[] = [];
      expect(await deadletterCli(['outbox', ...args], (l) => lines.push(l), { MONGODB_URL: infra.mongoUrl })).toBe(0);
      return lines.join('\n');
    };
    const listed = await cli('list', infra.dbName);
    expect(listed).toMatch(new RegExp(`offers +l1 +kitolate\\.offer\\.accepted +${late.id} +2 +no stream takes kitolate\\.offer\\.accepted`));
    expect((await listParkedOutbox(infra.db)).map((p) => p.eventId)).toContain(late.id);

    // The cause goes (its stream exists now); the replay puts it back and the relay publishes it.
    await ensureStream(infra.bus, 'kitolate');
    expect(await cli('replay', infra.dbName, late.id)).toMatch(/^back in the outbox: offers l1 kitolate\.offer\.accepted/);
    await relay.flush();
    const stream = await infra.bus.jsm.streams.info('kitolate');
    expect(stream.state.messages).toBe(1);
    const stored = await infra.bus.jsm.streams.getMessage('kitolate', { seq: stream.state.last_seq });
    expect(stored.json<EventEnvelope>().id).toBe(late.id);
    const doc = await offers().findOne({ _id: 'l1' });
    expect(doc?.outbox).toBeUndefined();
    expect(doc?.outboxParked).toBeUndefined();
    expect(await offers().countDocuments({ _id: 'l1', ...PARKED })).toBe(0);
    expect(await cli('list', infra.dbName)).not.toMatch(late.id);
    await relay.stop();
  });

  it('publishes a packed entry as the event it holds, and parks one that cannot be published with its type', async () => {
    const sub = await received('outbox-packed');
    const good = createEvent(registry, 'kito.offer.accepted', { offerId: 'pk1' });
    const nowhere = { ...createEvent(registry, 'kito.offer.accepted', { offerId: 'pk1' }), type: 'kitopacked.offer.accepted' };
    await offers().insertOne({ _id: 'pk1', status: 'Accepted', ...packedOutboxDocument(good, nowhere) });
    expect(typeof (await offers().findOne({ _id: 'pk1' }))?.outbox?.[good.id]?.packed).toBe('string');
    const relay = startOutboxRelay({ bus: infra.bus, db: infra.db, collections: ['offers'], logger, intervalMs: 60_000, maxAttempts: 1, retryDelayMs: () => 0 });
    await waitFor(async () => {
      await relay.flush();
      return (await offers().countDocuments({ _id: 'pk1', ...PENDING })) === 0;
    });
    await waitFor(() => sub.seen.some((e) => e.id === good.id));
    expect(sub.seen.find((e) => e.id === good.id)).toEqual(good);
    expect((await listParkedOutbox(infra.db)).find((p) => p.eventId === nowhere.id)?.entry).toMatchObject({ reason: 'no stream takes kitopacked.offer.accepted (no responders)' });
    await relay.stop();
    await sub.stop();
  });

  it('counts no attempt when JetStream itself does not answer', async () => {
    const event = createEvent(registry, 'kito.offer.accepted', { offerId: 'd1' });
    await offers().insertOne({ _id: 'd1', status: 'Accepted', ...unflatten(outboxFields(event)) });
    const down = await connectBus(infra.natsUrl, 'kit-outbox-down');
    await down.nc.close();
    const relay = startOutboxRelay({ bus: down, db: infra.db, collections: ['offers'], logger, intervalMs: 60_000, maxAttempts: 1 });
    await relay.flush();
    await relay.flush();
    const pending = (await observeKitGauge('ruilplein.outbox.pending')).flat().find((o) => o.attributes.collection === 'offers');
    await relay.stop();
    expect(pending?.value).toBe(1);
    const doc = await offers().findOne({ _id: 'd1' });
    expect(doc?.outbox?.[event.id]?.attempts).toBeUndefined();
    expect(doc?.outboxPending).toBe(true);
    expect(doc?.outboxParked).toBeUndefined();
  });
});

/** `outbox.<id>` paths as the nested document an insert needs. */
function unflatten(fields: Record<string, unknown>): Partial<Offer> {
  const out: Record<string, Record<string, unknown> | unknown> = {};
  for (const [path, value] of Object.entries(fields)) {
    const [head, key] = path.split('.');
    if (key) out[head!] = { ...(out[head!] as object), [key]: value };
    else out[path] = value;
  }
  return out as Partial<Offer>;
}
