// Premium membership's price, the provider's payment statuses and the Dutch messages of the
// membership, upgrade and payment-return screens (spec 1 §2, §4, §8, §9), shared by the browser and
// the payment service. Zod-free: exported by `@ruilplein/contracts/browser`.

/** EUR 2.49 per month, renewed automatically (spec 1 §9); amounts are whole cents everywhere. */
export const PREMIUM_PRICE_CENTS = 249;
export const PREMIUM_CURRENCY = 'EUR';
/** The only period the seed's client asks for (its create-subscription body). */
export const SUBSCRIPTION_INTERVAL = '1 month';

/** A payment's status in the provider's (Mollie's) words. */
export const PAYMENT_STATUSES = ['open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** Statuses a payment never leaves. */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['paid', 'failed', 'canceled', 'expired'];

/** Where the provider's checkout sends the member back (the spec leaves the path open). */
export const PAYMENT_RETURN_PATH = '/dashboard/upgrade/betaling';
/** Where the browser keeps the payment id during the upgrade (spec 1 §3 "Payment"). */
export const PAYMENT_ID_STORAGE_KEY = 'ruilplein.paymentId';

/** Euros in Dutch: 249 → '€ 2,49'. */
export const formatEuros = (cents: number) => new Intl.NumberFormat('nl-NL', { style: 'currency', currency: PREMIUM_CURRENCY }).format(cents / 100);

export const PAYMENT_MESSAGES = {
  alreadyPremium: 'Je hebt al een actief Premium-abonnement.',
  premiumStillRuns: 'Je Premium loopt nog tot het einde van de betaalde periode. Daarna kun je opnieuw Premium nemen.',
  noPaidFirstPayment: 'Er is nog geen geslaagde eerste betaling. Rond eerst de betaling af.',
  wrongInterval: `Kies de periode "${SUBSCRIPTION_INTERVAL}".`,
  noSubscription: 'Je hebt geen actief Premium-abonnement.',
  cancelled: 'Je premium lidmaatschap is succesvol beëindigd.',
  paymentNotFound: 'Betaling niet gevonden.',
  invalidPaymentId: 'Ongeldig betalingsnummer.',
  providerUnavailable: 'De betaaldienst is even niet bereikbaar. Probeer het later opnieuw.',
  checkoutClosed: 'Deze betaling is al afgerond.',
  // The screens (spec 1 §8).
  notLoggedIn: 'Je bent niet ingelogd.',
  unauthorized: 'Niet geautoriseerd. Log opnieuw in.',
  startFailed: 'Fout bij starten betaling: ',
  somethingWrong: 'Er ging iets mis.',
  cancelFailed: 'Fout bij annuleren: ',
  cancelError: 'Er is iets misgegaan bij het annuleren van je lidmaatschap.',
  noPaymentId: 'Geen paymentId gevonden.',
  statusUnavailable: 'Kon de betalingsstatus niet ophalen.',
  notPaid: 'Betaling niet gelukt of nog niet afgerond.',
  subscriptionFailed: 'Betaling oké, maar abonnement maken mislukte: ',
  activationError: 'Er ging iets mis tijdens het activeren van je abonnement.',
  activated: 'Abonnement geactiveerd! Veel plezier met Premium',
} as const;
