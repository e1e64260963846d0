import { randomUUID } from 'node:crypto';
import { testStores } from '../src/test-stores.ts';
import { connectBus, connectMongo, type Bus, type Connection } from '../src/index.ts';

/** A fresh database and NATS connection on the test stores; `close` drops the database. */
export async function testInfra(name: string): Promise<{ db: Connection; bus: Bus; dbName: string; mongoUrl: string; natsUrl: string; close(): Promise<void> }> {
  const { mongoUrl, natsUrl } = testStores();
  const dbName = `${name}-${randomUUID().slice(0, 8)}`;
  const [db, bus] = await Promise.all([connectMongo(mongoUrl, dbName), connectBus(natsUrl, name)]);
  return {
    db,
    bus,
    dbName,
    mongoUrl,
    natsUrl,
    async close() {
      await db.dropDatabase();
      await db.close();
      await bus.nc.drain();
    },
  };
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
