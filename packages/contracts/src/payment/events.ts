// What the payment service announces on NATS (`payment.>`): a member's Premium subscription, with
// the end of the paid period and the version of that member's membership (one higher per change).
import { z } from 'zod';
import { defineEvents } from '../events.ts';

export const SubscriptionEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  /** Premium holds until this moment (the end of the paid period); null once it has ended. */
  paidUntil: z.iso.datetime().nullable(),
  at: z.iso.datetime(),
});
export type SubscriptionEvent = z.infer<typeof SubscriptionEventSchema>;

export const paymentEvents = defineEvents('payment', {
  'payment.subscription.activated': SubscriptionEventSchema,
  'payment.subscription.renewed': SubscriptionEventSchema,
  'payment.subscription.cancelled': SubscriptionEventSchema,
  'payment.subscription.expired': SubscriptionEventSchema,
  /**
   * A renewal payment failed: the subscription is cancelled at the provider and Premium ends with
   * the paid period (`paidUntil`), unless the member pays again. Once per failed payment.
   */
  'payment.subscription.renewal-failed': SubscriptionEventSchema,
});
