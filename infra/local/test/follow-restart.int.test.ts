// A stream followed from a point in time (the kit's followStream, as listing's search and saved
// searches follow) goes on after NATS is killed and started again. Before, nats.js recreated the
// ordered consumer by sequence while keeping its start time, the server refused that (10094), the
// feed ended with 'unable to recreate ordered consumer' and listing exited (found by `npm run chaos`).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, ensureStream, followStream, type Bus, type StreamFeed } from '@ruilplein/service-kit';
import { StringCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerAnswers } from '../src/docker.ts';
import { startStores, type Stores } from '../src/stores.ts';

const codec = StringCodec();
let dataDir: string;
let stores: Stores;
let reader: Bus;
let writer: Bus;
let feed: StreamFeed | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'ruilplein-follow-'));
  stores = await startStores({ dataDir, envPrefix: false });
  [reader, writer] = await Promise.all([connectBus(stores.natsUrl, 'follow-reader'), connectBus(stores.natsUrl, 'follow-writer')]);
}, 60_000);
afterAll(async () => {
  await feed?.close();
  await Promise.all([reader, writer].map((bus) => bus?.nc.close()));
  await stores?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(await dockerAnswers())('a stream followed from a time', () => {
  it('goes on, in order and without gaps, after NATS is killed and started again', async () => {
    await ensureStream(writer, 'listing');
    const publish = async (n: number) => {
      await writer.js.publish(`listing.follow.test${n}`, codec.encode(String(n)));
    };
    for (let n = 1; n <= 3; n++) await publish(n);
    feed = await followStream(reader, 'listing', { filterSubjects: ['listing.follow.>'], startTime: new Date(Date.now() - 60_000).toISOString() });
    const seen: number[] = [];
    const reading = (async () => {
      for await (const msg of feed!) seen.push(Number(codec.decode(msg.data)));
    })();
    const until = async (count: number) => {
      const end = Date.now() + 30_000;
      while (seen.length < count) {
        if (Date.now() > end) throw new Error(`only ${seen.length} of ${count} read`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await until(3);

    const nats = stores.processes.nats!;
    await nats.kill();
    await nats.start();
    // Published once both clients are back; the reader's consumer is recreated meanwhile.
    for (let n = 4; n <= 6; n++) {
      for (let tries = 0; ; tries++) {
        try {
          await publish(n);
          break;
        } catch (err) {
          if (tries > 100) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }
    await until(6);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    await feed.close();
    await reading;
  }, 60_000);
});
