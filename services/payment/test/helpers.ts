// The payment service over real HTTP on the run's stores, with its local checkout (or a provider the
// test makes), its webhook pointing at itself, and every `payment.>` event it publishes collected.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@ruilplein/contracts';
import { testStores } from '@ruilplein/local/testing';
import { connectBus, connectMongo, ensureStream, type Bus, type Connection } from '@ruilplein/service-kit';
import { createTestIssuer, listen, silentLogger, type TestIssuer } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createClient, type RedisClientType } from 'redis';
import { createPaymentService, type PaymentConfig } from '../src/app.ts';
import type { PaymentContext } from '../src/context.ts';
import type { PaymentProvider } from '../src/providers/provider.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface PaymentHarness {
  url: string;
  db: Connection;
  ctx: PaymentContext;
  issuer: TestIssuer;
  events: EventEnvelope[];
  member(): Promise<{ id: string; token: string }>;
  close(): Promise<void>;
}

export async function startPayment(config: Partial<PaymentConfig> = {}, provider?: (db: Connection) => PaymentProvider): Promise<PaymentHarness> {
  const { mongoUrl, natsUrl, natsServiceUrls, redisUrl } = testStores();
  const redis: RedisClientType = createClient({ url: redisUrl });
  const [db, bus, adminBus, issuer] = (await Promise.all([
    connectMongo(mongoUrl, `payment-${randomUUID().slice(0, 8)}`),
    connectBus(natsServiceUrls?.payment ?? natsUrl, 'payment-test'),
    connectBus(natsUrl, 'payment-test-admin'),
    createTestIssuer(),
    redis.connect(),
  ])) as [Connection, Bus, Bus, TestIssuer, unknown];
  await ensureStream(adminBus, 'payment');
  await adminBus.jsm.streams.purge('payment');
  const events: EventEnvelope[] = [];
  const consumer = await adminBus.js.consumers.get('payment', { filterSubjects: ['payment.>'] });
  const messages = await consumer.consume();
  const reading = (async () => {
    for await (const msg of messages) events.push(msg.json<EventEnvelope>());
  })();
  const parts = await createPaymentService({
    db,
    bus,
    redis,
    logger: silentLogger(),
    verifyToken: issuer.verifyToken,
    config: { RUILPLEIN_MODE: 'local', PUBLIC_URL: 'http://ruilplein.test', PAYMENT_SWEEP_SECONDS: 3600, ...config },
    ...(provider && { provider: provider(db) }),
  });
  const server = await listen(parts.app);
  // The provider calls the service itself (Mollie would call the public URL).
  parts.ctx.webhookUrl = `${server.url}/api/payment/webhook`;
  return {
    url: server.url,
    db,
    ctx: parts.ctx,
    issuer,
    events,
    async member() {
      const id = new Types.ObjectId().toHexString();
      return { id, token: await issuer.sign({ sub: id }) };
    },
    async close() {
      await server.close();
      for (const worker of parts.workers ?? []) await worker.stop();
      await messages.close();
      await reading;
      await db.dropDatabase();
      await Promise.all([db.close(), bus.nc.drain(), adminBus.nc.drain(), issuer.close(), redis.quit()]);
    },
  };
}

export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function send(url: string, path: string, init: { method?: string; token?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    ...(init.form && { body: new URLSearchParams(init.form) }),
    headers: {
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...(init.json !== undefined && { 'content-type': 'application/json' }),
      ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }),
    },
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML or empty
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
