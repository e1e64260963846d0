// One provider suite, run against both implementations: the local checkout, and Mollie's official
// client pointed at a stand-in of Mollie's HTTP API.
import { randomUUID } from 'node:crypto';
import { testStores } from '@ruilplein/local/testing';
import { connectMongo, type Connection } from '@ruilplein/service-kit';
import { silentLogger } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localProvider } from '../src/providers/local/provider.ts';
import { mollieProvider } from '../src/providers/mollie.ts';
import type { PaymentProvider } from '../src/providers/provider.ts';
import { startMollieStandin, type MollieStandin } from './mollie-standin.ts';

let db: Connection;
let standin: MollieStandin;

beforeAll(async () => {
  // The stand-in's certificate is self-signed (mollie-standin.ts); this test process only.
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  db = await connectMongo(testStores().mongoUrl, `payment-${randomUUID().slice(0, 8)}`);
  standin = await startMollieStandin();
});
afterAll(async () => {
  await db.dropDatabase();
  await db.close();
  await standin.close();
});

interface Driver {
  provider: PaymentProvider;
  /** The payer's choice on the hosted checkout. */
  pay(id: string, outcome: 'paid' | 'failed' | 'canceled'): Promise<void>;
}

const drivers: Record<string, () => Driver> = {
  local: () => {
    const provider = localProvider({ db, publicUrl: 'http://ruilplein.test', openMinutes: 15, logger: silentLogger() });
    return { provider, pay: async (id, outcome) => void (await provider.settle(id, outcome)) };
  },
  mollie: () => ({ provider: mollieProvider({ apiKey: 'test_standin1234567890', apiEndpoint: standin.url }), pay: async (id, outcome) => void standin.settle(id, outcome) }),
};

for (const [name, make] of Object.entries(drivers)) {
  describe(`${name} provider`, () => {
    const first = (provider: PaymentProvider, customerId: string, key: string) =>
      provider.createFirstPayment({ customerId, amountCents: 249, description: 'Ruilplein Premium', redirectUrl: 'http://ruilplein.test/terug', webhookUrl: 'http://127.0.0.1:9/webhook', userId: 'u1', idempotencyKey: key });

    it('makes a customer and a first payment once per idempotency key, with a checkout', async () => {
      const { provider } = make();
      const key = randomUUID();
      const customer = await provider.createCustomer({ name: 'Lid', userId: 'u1', idempotencyKey: `cust-${key}` });
      expect(await provider.createCustomer({ name: 'Lid', userId: 'u1', idempotencyKey: `cust-${key}` })).toBe(customer);
      const payment = await first(provider, customer, `first-${key}`);
      expect(payment.id).toMatch(/^tr_\w+$/);
      expect(payment.checkoutUrl).toMatch(/^https?:\/\//);
      expect((await first(provider, customer, `first-${key}`)).id).toBe(payment.id);
      expect((await first(provider, customer, `first-${key}-2`)).id).not.toBe(payment.id);
      expect(await provider.getPayment(payment.id)).toMatchObject({ id: payment.id, status: 'open', sequenceType: 'first', amountCents: 249, customerId: customer });
    });

    it('reports the outcome the payer chose; an unknown id is null', async () => {
      const driver = make();
      const customer = await driver.provider.createCustomer({ name: 'Lid', userId: 'u1', idempotencyKey: randomUUID() });
      for (const outcome of ['paid', 'failed', 'canceled'] as const) {
        const payment = await first(driver.provider, customer, randomUUID());
        await driver.pay(payment.id, outcome);
        const seen = await driver.provider.getPayment(payment.id);
        expect(seen?.status).toBe(outcome);
        if (outcome === 'paid') expect(seen?.paidAt).toBeInstanceOf(Date);
      }
      expect(await driver.provider.getPayment('tr_onbekend123')).toBeNull();
    });

    it('makes a subscription once per key, and cancels it', async () => {
      const { provider } = make();
      const customer = await provider.createCustomer({ name: 'Lid', userId: 'u1', idempotencyKey: randomUUID() });
      const input = { customerId: customer, amountCents: 249, interval: '1 month' as const, startDate: '2027-01-01', description: 'Ruilplein Premium', webhookUrl: 'http://127.0.0.1:9/webhook', userId: 'u1', idempotencyKey: randomUUID() };
      const sub = await provider.createSubscription(input);
      expect((await provider.createSubscription(input)).id).toBe(sub.id);
      await provider.cancelSubscription(customer, sub.id);
    });
  });
}

describe('the Mollie client against the stand-in', () => {
  it('sent every create with an idempotency key and the amount as Mollie wants it', () => {
    const creates = standin.calls.filter((c) => c.method === 'POST');
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every((c) => c.key)).toBe(true);
  });
});
