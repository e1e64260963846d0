// The clustered local mode's promise (issue 25): with three NATS nodes and every stream at three
// replicas, SIGKILLing a node under load loses nothing. Events go out through the kit's publish
// path (message id = event id, so a retried publish is dropped by JetStream) and come in through
// the kit's durable consumer (claims in the store, so a redelivery is handled once).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, connectMongo, consume, createEvent, ensureStream, publishEvent, type Bus, type Connection, type Worker } from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NATS_ADMIN, startNatsCluster, type NatsCluster } from '../src/stores.ts';
import { testStores } from '../src/testing.ts';

const EVENTS = 1500;
/** Publishes in flight at once, as a busy outbox relay and several services would have. */
const IN_FLIGHT = 12;
const STREAM = 'cluster';
const registry = { 'cluster.thing.happened': z.object({ n: z.number() }) };
const logger = silentLogger();

let dataDir: string;
let cluster: NatsCluster;
let db: Connection;
const buses: Bus[] = [];
const savedReplicas = process.env.NATS_STREAM_REPLICAS;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-nats-cluster-'));
  // Only the privileged user: this test is about the cluster, not the services' rights.
  cluster = await startNatsCluster({ dataDir, nodes: 3, natsUsers: [] });
  db = await connectMongo(testStores().mongoUrl, `nats-cluster-${Date.now()}`);
  // What the runner gives every service in clustered mode (platform.ts).
  process.env.NATS_STREAM_REPLICAS = '3';
}, 90_000);

afterAll(async () => {
  if (savedReplicas === undefined) delete process.env.NATS_STREAM_REPLICAS;
  else process.env.NATS_STREAM_REPLICAS = savedReplicas;
  for (const bus of buses) await bus.nc.close().catch(() => {});
  await db?.dropDatabase().catch(() => {});
  await db?.close();
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const admin = () => cluster.userUrls[NATS_ADMIN]!;
/** A node's URL with the privileged user on it. */
const nodeUrl = (name: string) => admin().split(',')[cluster.nodes.findIndex((n) => n.name === name)]!;

async function bus(url: string, name: string): Promise<Bus> {
  const b = await connectBus(url, name);
  buses.push(b);
  return b;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a three-node NATS cluster', () => {
  it('keeps every stream at three replicas, with the URLs of all nodes in one comma-separated NATS_URL', async () => {
    const setup = await bus(admin(), 'cluster-setup');
    expect(admin().split(',')).toHaveLength(3);
    await ensureStream(setup, STREAM);
    const info = await setup.jsm.streams.info(STREAM);
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.name).toBe('ruilplein');
    expect(info.cluster?.replicas).toHaveLength(2);
  });

  it('loses no event and handles each once when a node is SIGKILLed under load and started again', async () => {
    const setup = await bus(admin(), 'cluster-setup-2');
    await ensureStream(setup, STREAM);
    // The node to kill leads the stream, and both clients start on it: the hardest case (a new
    // stream leader, and both must move to the surviving nodes, learnt from the cluster).
    const leader = (await setup.jsm.streams.info(STREAM)).cluster!.leader!;
    const victim = cluster.nodes.find((n) => n.name === leader)!;
    const publisher = await bus(nodeUrl(leader), 'cluster-publisher');
    const consumer = await bus(nodeUrl(leader), 'cluster-consumer');
    expect(publisher.nc.info?.server_name).toBe(leader);
    expect(consumer.nc.info?.server_name).toBe(leader);

    const handled = new Map<string, number>();
    let lastHandledAt = 0;
    const worker: Worker = await consume(consumer, {
      durable: 'cluster-kill',
      registry,
      subjects: ['cluster.thing.happened'],
      db,
      logger,
      concurrency: 8,
      ackWaitMs: 3000,
      retryDelayMs: () => 200,
      handler: async (event) => {
        handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
        lastHandledAt = Date.now();
      },
    });

    const events = Array.from({ length: EVENTS }, (_, n) => createEvent(registry, 'cluster.thing.happened', { n }));
    const startedAt = Date.now();
    let next = 0;
    let acked = 0;
    let retries = 0;
    let lastAckAt = 0;
    let longestAckGap = 0;
    let killedAt = 0;
    let firstAckAfterKill = 0;
    /** Publishes one event until JetStream acknowledges it (a retry repeats its message id). */
    const publishOne = async (i: number) => {
      for (;;) {
        try {
          await publishEvent(publisher, events[i]!);
          acked++;
          const at = Date.now();
          // The longest stretch without any acknowledgement, from the kill on: the publish outage.
          if (killedAt) longestAckGap = Math.max(longestAckGap, at - Math.max(lastAckAt, killedAt));
          lastAckAt = at;
          if (killedAt && !firstAckAfterKill) firstAckAfterKill = lastAckAt;
          return;
        } catch {
          retries++;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const lanes = Array.from({ length: IN_FLIGHT }, async () => {
      while (next < EVENTS) await publishOne(next++);
    });

    // A third in: kill the node.
    await until('a third published', async () => acked >= EVENTS / 3, 60_000);
    const handledAtKill = handled.size;
    killedAt = Date.now();
    await victim.kill();
    expect(victim.running()).toBe(false);
    // Both clients move to a surviving node; the stream elects a new leader.
    await until('the publisher on another node', async () => publisher.nc.info?.server_name !== leader && !publisher.nc.isClosed() && publisher.nc.info?.server_name);
    await until('the consumer on another node', async () => consumer.nc.info?.server_name !== leader && consumer.nc.info?.server_name);
    const newLeader = await until('a new stream leader', async () => {
      const l = (await setup.jsm.streams.info(STREAM)).cluster?.leader;
      return l && l !== leader ? l : undefined;
    });
    await until('publishing again', async () => firstAckAfterKill > 0);
    const consumingAgain = await until('consuming again', async () => lastHandledAt > killedAt && handled.size > handledAtKill && lastHandledAt);

    // Two thirds in (or all, on a fast run): start it again on its old data.
    await until('two thirds published', async () => acked >= (2 * EVENTS) / 3, 60_000);
    const restartedAt = Date.now();
    await victim.start();
    const current = await until(
      'the restarted node current again',
      async () => {
        const replicas = (await setup.jsm.streams.info(STREAM)).cluster?.replicas ?? [];
        const back = replicas.find((r) => r.name === leader);
        return back?.current && !back.lag && Date.now();
      },
      60_000,
    );

    await Promise.all(lanes);
    await until('every event handled', async () => handled.size === EVENTS, 60_000);
    const stream = await setup.jsm.streams.info(STREAM);
    // The last acks travel after their handlers returned: the durable is read until it has them.
    const durable = await until(
      'the last acks',
      async () => {
        const info = await setup.jsm.consumers.info(STREAM, 'cluster-kill');
        return info.num_pending === 0 && info.num_ack_pending === 0 && info;
      },
      30_000,
    );
    await worker.stop();

    // Nothing lost, nothing twice: in the stream, and in the handler.
    expect(stream.state.messages).toBe(EVENTS);
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    expect(events.every((e) => handled.has(e.id))).toBe(true);
    expect(durable.num_pending).toBe(0);
    expect(durable.num_ack_pending).toBe(0);
    expect(await db.collection('consumed_events').countDocuments({ state: 'done' })).toBe(EVENTS);

    // The figures for the notes (docs/decisions.md): how long each part took to come back.
    console.log(
      JSON.stringify({
        natsClusterKill: {
          events: EVENTS,
          inFlight: IN_FLIGHT,
          killed: leader,
          newLeader,
          publishRetries: retries,
          firstAckAfterKillMs: firstAckAfterKill - killedAt,
          longestPublishGapMs: longestAckGap,
          consumeOutageMs: consumingAgain - killedAt,
          restartedNodeCurrentMs: current - restartedAt,
          runMs: lastAckAt - startedAt,
        },
      }),
    );
  }, 180_000);

  it('lets the replicas of a service start the same durable at once, each on another node', async () => {
    // `npm start -- --replicas 2` starts both instances together: one creates the durable while
    // the other looks it up, on nodes that may not have heard of it yet (a CI run: auth-2 exited
    // with 'consumer not found').
    const STARTING = 4;
    const ROUNDS = 8;
    const urls = admin().split(',');
    const starters = await Promise.all(Array.from({ length: STARTING }, (_, i) => bus(urls[i % urls.length]!, `cluster-starter-${i}`)));
    for (let round = 0; round < ROUNDS; round++) {
      // A new stream each round as well: at start both replicas also create their streams.
      const subject = `starting${round}.thing.happened`;
      const fresh = { [subject]: z.object({ n: z.number() }) };
      const handled: string[] = [];
      const workers = await Promise.all(
        starters.map((b) =>
          consume(b, {
            durable: 'cluster-start',
            registry: fresh,
            subjects: [subject],
            db,
            logger,
            handler: async (event) => {
              handled.push(event.id);
            },
          }),
        ),
      );
      const event = createEvent(fresh, subject, { n: round });
      await publishEvent(starters[0]!, event);
      await until(`round ${round}: the event handled`, async () => handled.includes(event.id));
      await Promise.all(workers.map((w) => w.stop()));
      expect(handled.filter((id) => id === event.id)).toHaveLength(1);
    }
  }, 120_000);
});
