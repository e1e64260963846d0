// The payment service's HTTP routes. Each route spreads its zod-free ref (refs.ts) and adds what the
// service validates with.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { paymentRefs } from './refs.ts';
import { PAYMENT_MESSAGES, PAYMENT_STATUSES, SUBSCRIPTION_INTERVAL } from './rules.ts';

/** A provider's payment id: Mollie's `tr_…`, or the local checkout's. */
const paymentId = z
  .string({ error: PAYMENT_MESSAGES.invalidPaymentId })
  .trim()
  .regex(/^tr_[A-Za-z0-9]{6,40}$/, PAYMENT_MESSAGES.invalidPaymentId);

export const SubscriptionSchema = z
  .object({
    subscriptionId: z.string(),
    status: z.enum(['active', 'cancelled', 'expired']),
    /** Premium holds until then (the end of the paid period). */
    subscriptionEndsAt: z.iso.datetime(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const paymentRoutes = {
  startUpgradeFirst: defineRoute({
    ...paymentRefs.startUpgradeFirst,
    summary: 'Premium starten: een eerste betaling (met machtiging) bij de betaaldienst; antwoord het id en de betaalpagina',
    response: z.object({ paymentId: z.string(), checkoutUrl: z.string() }),
    status: 201,
  }),
  status: defineRoute({
    ...paymentRefs.status,
    summary: 'De status van een betaling in de woorden van de betaaldienst (open, paid, failed, canceled, expired…)',
    query: z.object({ id: paymentId }),
    response: z.object({ status: z.enum(PAYMENT_STATUSES) }),
  }),
  createSubscription: defineRoute({
    ...paymentRefs.createSubscription,
    summary: 'Het maandabonnement maken na een betaalde eerste betaling; body: de string "1 month"; nogmaals: hetzelfde abonnement',
    body: z.literal(SUBSCRIPTION_INTERVAL, { error: PAYMENT_MESSAGES.wrongInterval }),
    response: SubscriptionSchema,
  }),
  mine: defineRoute({
    ...paymentRefs.mine,
    summary: 'Het eigen abonnement: loopt het, is het opgezegd of afgelopen, en tot wanneer geldt Premium',
    response: z
      .object({ status: z.enum(['none', 'active', 'cancelled', 'expired']), subscriptionEndsAt: z.iso.datetime().nullable() })
      .meta({ id: 'MyMembership' }),
  }),
  cancelSubscription: defineRoute({
    ...paymentRefs.cancelSubscription,
    summary: 'Het abonnement opzeggen; Premium blijft tot het einde van de betaalde periode',
    response: z.object({ message: z.string(), subscriptionEndsAt: z.iso.datetime() }),
  }),
  webhook: defineRoute({
    ...paymentRefs.webhook,
    summary: 'Melding van de betaaldienst (alleen een id, nagevraagd bij de betaaldienst); altijd snel 200',
    form: { files: {} },
    body: z.object({ id: z.string().max(100) }),
    response: z.object({ received: z.boolean() }),
  }),
  checkoutPage: defineRoute({
    ...paymentRefs.checkoutPage,
    summary: 'De lokale betaalpagina (HTML) met de knoppen Betaald, Mislukt, Geannuleerd en Verlopen',
    params: z.object({ id: paymentId }),
    response: z.string(),
    html: true,
  }),
  checkoutOutcome: defineRoute({
    ...paymentRefs.checkoutOutcome,
    summary: 'De uitkomst kiezen op de lokale betaalpagina; stuurt terug naar de redirect-URL (303)',
    params: z.object({ id: paymentId }),
    form: { files: {} },
    body: z.object({ outcome: z.enum(['paid', 'failed', 'canceled', 'expired']) }),
    response: z.string(),
    html: true,
    status: 303,
  }),
} satisfies Record<keyof typeof paymentRefs, RouteDef>;
