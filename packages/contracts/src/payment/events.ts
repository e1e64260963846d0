// What the payment service announces on NATS (`payment.>`): payload schemas of their own, each event
// about one aggregate with its `version` (see auth/events.ts).
import { defineEvents } from '../events.ts';

/** None yet. */
export const paymentEvents = defineEvents('payment', {});
