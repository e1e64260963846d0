// What the payment service needs of a payment provider: Mollie's model (customers, a first payment
// that creates a mandate, subscriptions on it, webhooks that carry only an id). Two implementations:
// Mollie itself (mollie.ts) and a local checkout that behaves like Mollie's test mode (local/).
import type { PaymentStatus } from '@ruilplein/contracts';

export interface ProviderPayment {
  id: string;
  status: PaymentStatus;
  customerId: string;
  /** 'first' (the checkout that creates the mandate) or 'recurring' (a subscription's renewal). */
  sequenceType: 'first' | 'recurring' | 'oneoff';
  amountCents: number;
  /** Set on a subscription's payments. */
  subscriptionId?: string;
  paidAt?: Date;
  createdAt: Date;
  metadata?: { userId?: string };
}

export interface CreateFirstPayment {
  customerId: string;
  amountCents: number;
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  userId: string;
  idempotencyKey: string;
}

export interface CreateSubscription {
  customerId: string;
  amountCents: number;
  interval: '1 month';
  /** The first renewal's day (YYYY-MM-DD): one period after the first payment. */
  startDate: string;
  description: string;
  webhookUrl: string;
  userId: string;
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: 'local' | 'mollie';
  createCustomer(input: { name: string; userId: string; idempotencyKey: string }): Promise<string>;
  /** A first payment with its hosted checkout. */
  createFirstPayment(input: CreateFirstPayment): Promise<{ id: string; checkoutUrl: string }>;
  /** The payment as the provider knows it now; null for an id it does not know. */
  getPayment(id: string): Promise<ProviderPayment | null>;
  createSubscription(input: CreateSubscription): Promise<{ id: string }>;
  cancelSubscription(customerId: string, subscriptionId: string): Promise<void>;
}

/** A provider that could not be reached or refused: the member sees PAYMENT_MESSAGES.providerUnavailable. */
export class ProviderError extends Error {}
