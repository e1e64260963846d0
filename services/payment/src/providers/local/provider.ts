import { randomBytes } from 'node:crypto';
import { now, startPeriodic, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { CreateFirstPayment, CreateSubscription, PaymentProvider, ProviderPayment } from '../provider.ts';
import { localStore, type LocalPaymentDoc, type LocalStore } from './store.ts';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** An id like Mollie's: a prefix and 16 random characters (unguessable: the status route is public). */
export const randomId = (prefix: string) => `${prefix}_${[...randomBytes(16)].map((b) => BASE62[b % 62]).join('')}`;

/** YYYY-MM-DD of a moment (UTC), and one month on (the same day, or the month's last). */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
export function addMonth(at: Date): Date {
  const next = new Date(at);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return next;
}

export interface LocalProvider extends PaymentProvider {
  store: LocalStore;
  /** The test mode's switch: the next renewal of this member's subscription fails. */
  failNextRenewal(userId: string): Promise<boolean>;
  /** Charges every subscription whose renewal day has come (on the platform's clock); answers how many. */
  renewDue(): Promise<number>;
  /** renewDue every `intervalMs`. */
  startRenewals(intervalMs: number): Worker;
  /** Chooses a payment's outcome as the checkout page does; false when it was no longer open. */
  settle(id: string, outcome: 'paid' | 'failed' | 'canceled' | 'expired'): Promise<LocalPaymentDoc | null>;
}

/**
 * Mollie's test mode, played locally: payments with a hosted checkout (checkout.ts) where the outcome
 * is chosen, that expire when left open, subscriptions that renew on schedule, and a webhook call (a
 * form POST with only the id, as Mollie sends it) after each change.
 */
export function localProvider(opts: { db: Connection; publicUrl: string; openMinutes: number; logger: Logger }): LocalProvider {
  const store = localStore(opts.db);

  /** As Mollie: tell the webhook; it asks back what happened. A failed call is logged (Mollie would retry). */
  const notify = async (webhookUrl: string, id: string) => {
    try {
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ id }), signal: AbortSignal.timeout(10_000) });
      if (!res.ok) opts.logger.warn({ id, status: res.status }, 'local checkout: the webhook refused');
    } catch (err) {
      opts.logger.warn({ err, id }, 'local checkout: the webhook could not be reached');
    }
  };

  /**
   * The same key gives the first result again (Mollie's idempotency): the key is claimed before the
   * work, so of two calls at once one works and the other waits for its result.
   */
  async function once(key: string, make: () => Promise<string>): Promise<string> {
    try {
      await store.keys.insertOne({ _id: key, result: '' });
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
      for (let i = 0; i < 200; i++) {
        const known = await store.keys.findOne({ _id: key });
        if (known?.result) return known.result;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`idempotency key ${key}: the first call never finished`, { cause: err });
    }
    try {
      const result = await make();
      await store.keys.updateOne({ _id: key }, { $set: { result } });
      return result;
    } catch (err) {
      await store.keys.deleteOne({ _id: key, result: '' }); // let a retry do the work
      throw err;
    }
  }

  const toProvider = (doc: LocalPaymentDoc): ProviderPayment => ({
    id: doc._id,
    status: doc.status,
    customerId: doc.customerId,
    sequenceType: doc.sequenceType,
    amountCents: doc.amountCents,
    ...(doc.subscriptionId && { subscriptionId: doc.subscriptionId }),
    ...(doc.paidAt && { paidAt: doc.paidAt }),
    createdAt: doc.createdAt,
    ...(doc.userId && { metadata: { userId: doc.userId } }),
  });

  async function settle(id: string, outcome: 'paid' | 'failed' | 'canceled' | 'expired') {
    const at = now();
    const done = await store.payments.findOneAndUpdate({ _id: id, status: 'open' }, { $set: { status: outcome, ...(outcome === 'paid' && { paidAt: at }) } }, { returnDocument: 'after' });
    if (done) void notify(done.webhookUrl, id);
    return done;
  }

  async function renewDue(): Promise<number> {
    const today = dayOf(now());
    let renewed = 0;
    for (const sub of await store.subscriptions.find({ status: 'active', nextPaymentDate: { $lte: today } }).toArray()) {
      const n = sub.renewals + 1;
      // Conditional on the count read: one renewal per due day, whoever runs it.
      const moved = await store.subscriptions.updateOne(
        { _id: sub._id, renewals: sub.renewals, status: 'active' },
        { $set: { renewals: n, nextPaymentDate: dayOf(addMonth(new Date(`${sub.nextPaymentDate}T00:00:00Z`))) }, $unset: { failNext: '' } },
      );
      if (moved.modifiedCount !== 1) continue;
      const at = now();
      const id = `tr_${sub._id.slice(4)}x${n}`;
      const status = sub.failNext ? 'failed' : 'paid';
      await store.payments.updateOne(
        { _id: id },
        { $setOnInsert: { status, customerId: sub.customerId, sequenceType: 'recurring', amountCents: sub.amountCents, description: 'Ruilplein Premium (verlenging)', webhookUrl: sub.webhookUrl, subscriptionId: sub._id, ...(sub.userId && { userId: sub.userId }), createdAt: at, expiresAt: at, ...(status === 'paid' && { paidAt: at }) } },
        { upsert: true },
      );
      await notify(sub.webhookUrl, id);
      renewed++;
    }
    return renewed;
  }

  return {
    name: 'local',
    store,
    settle,
    renewDue,
    async createCustomer({ name, userId, idempotencyKey }) {
      return once(idempotencyKey, async () => {
        const id = randomId('cst');
        await store.customers.insertOne({ _id: id, name, userId });
        return id;
      });
    },
    async createFirstPayment(input: CreateFirstPayment) {
      const id = await once(input.idempotencyKey, async () => {
        const id = randomId('tr');
        const at = now();
        await store.payments.insertOne({
          _id: id,
          status: 'open',
          customerId: input.customerId,
          sequenceType: 'first',
          amountCents: input.amountCents,
          description: input.description,
          redirectUrl: input.redirectUrl,
          webhookUrl: input.webhookUrl,
          userId: input.userId,
          createdAt: at,
          expiresAt: new Date(at.getTime() + opts.openMinutes * 60_000),
        });
        return id;
      });
      return { id, checkoutUrl: `${opts.publicUrl}/api/payment/checkout/${id}` };
    },
    async getPayment(id) {
      const doc = await store.payments.findOne({ _id: id });
      if (!doc) return null;
      // Left open too long: expired, as Mollie does, and the webhook hears of it.
      if (doc.status === 'open' && doc.expiresAt <= now()) return toProvider((await settle(id, 'expired')) ?? (await store.payments.findOne({ _id: id }))!);
      return toProvider(doc);
    },
    async createSubscription(input: CreateSubscription) {
      const id = await once(input.idempotencyKey, async () => {
        const id = randomId('sub');
        await store.subscriptions.insertOne({ _id: id, customerId: input.customerId, status: 'active', amountCents: input.amountCents, webhookUrl: input.webhookUrl, userId: input.userId, nextPaymentDate: input.startDate, renewals: 0 });
        return id;
      });
      return { id };
    },
    async cancelSubscription(customerId, subscriptionId) {
      await store.subscriptions.updateOne({ _id: subscriptionId, customerId }, { $set: { status: 'canceled' } });
    },
    async failNextRenewal(userId) {
      const done = await store.subscriptions.updateOne({ userId, status: 'active' }, { $set: { failNext: true } });
      return done.modifiedCount === 1;
    },
    startRenewals(intervalMs) {
      return startPeriodic({ intervalMs, work: renewDue, logger: opts.logger, what: 'local checkout: renewals' });
    },
  };
}
