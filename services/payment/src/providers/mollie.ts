import { createMollieClient, type MollieClient, type Payment, SequenceType } from '@mollie/api-client';
import { PAYMENT_STATUSES, PREMIUM_CURRENCY, type PaymentStatus } from '@ruilplein/contracts';
import type { PaymentProvider, ProviderPayment } from './provider.ts';
import { ProviderError } from './provider.ts';

/** '2.49' (Mollie's amounts are strings with two decimals) from whole cents, and back. */
export const mollieAmount = (cents: number) => ({ currency: PREMIUM_CURRENCY, value: (cents / 100).toFixed(2) });
const centsOf = (value: string) => Math.round(Number(value) * 100);

const fail = (err: unknown): never => {
  throw new ProviderError(err instanceof Error ? err.message : String(err));
};

/**
 * Mollie through its official client. `apiEndpoint` points it elsewhere (the tests' stand-in of
 * Mollie's HTTP API). Every create carries an idempotency key the caller keeps, so a retry after a
 * restart cannot charge or subscribe twice.
 */
export function mollieProvider(opts: { apiKey: string; apiEndpoint?: string }): PaymentProvider {
  const client: MollieClient = createMollieClient({ apiKey: opts.apiKey, ...(opts.apiEndpoint && { apiEndpoint: opts.apiEndpoint }) });
  const toProvider = (p: Payment): ProviderPayment => ({
    id: p.id,
    status: (PAYMENT_STATUSES as readonly string[]).includes(p.status) ? (p.status as PaymentStatus) : 'open',
    customerId: p.customerId ?? '',
    sequenceType: p.sequenceType === SequenceType.first ? 'first' : p.sequenceType === SequenceType.recurring ? 'recurring' : 'oneoff',
    amountCents: centsOf(p.amount.value),
    ...(p.subscriptionId && { subscriptionId: p.subscriptionId }),
    ...(p.paidAt && { paidAt: new Date(p.paidAt) }),
    createdAt: new Date(p.createdAt),
    ...(p.metadata !== null && typeof p.metadata === 'object' ? { metadata: p.metadata as { userId?: string } } : {}),
  });
  return {
    name: 'mollie',
    async createCustomer({ name, userId, idempotencyKey }) {
      const customer = await client.customers.create({ name, metadata: { userId }, idempotencyKey }).catch(fail);
      return customer.id;
    },
    async createFirstPayment(input) {
      const payment = await client.payments
        .create({
          amount: mollieAmount(input.amountCents),
          description: input.description,
          redirectUrl: input.redirectUrl,
          webhookUrl: input.webhookUrl,
          customerId: input.customerId,
          sequenceType: SequenceType.first,
          metadata: { userId: input.userId },
          idempotencyKey: input.idempotencyKey,
        })
        .catch(fail);
      const checkoutUrl = payment.getCheckoutUrl();
      if (!checkoutUrl) throw new ProviderError(`payment ${payment.id} has no checkout`);
      return { id: payment.id, checkoutUrl };
    },
    async getPayment(id) {
      try {
        return toProvider(await client.payments.get(id));
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 404) return null;
        return fail(err);
      }
    },
    async createSubscription(input) {
      const subscription = await client.customerSubscriptions
        .create({
          customerId: input.customerId,
          amount: mollieAmount(input.amountCents),
          interval: input.interval,
          startDate: input.startDate,
          description: input.description,
          webhookUrl: input.webhookUrl,
          metadata: { userId: input.userId },
          idempotencyKey: input.idempotencyKey,
        })
        .catch(fail);
      return { id: subscription.id };
    },
    async cancelSubscription(customerId, subscriptionId) {
      await client.customerSubscriptions.cancel(subscriptionId, { customerId }).catch(fail);
    },
  };
}
