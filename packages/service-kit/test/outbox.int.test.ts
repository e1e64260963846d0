import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@ruilplein/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { consume, createEvent, ensureStream, outboxFields, PENDING, publishEvent, startOutboxRelay, type OutboxEntry } from '../src/index.ts';
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

const offers = () => infra.db.collection<{ _id: string; status: string; outbox?: Record<string, OutboxEntry> }>('offers');

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
});
