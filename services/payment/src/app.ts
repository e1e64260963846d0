import {
  askAuthForContacts,
  ConfigError,
  createApp,
  joinHandlers,
  ensureStream,
  mailConfigSchema,
  mailTransportFor,
  startMailRelay,
  startOutboxRelay,
  startPeriodic,
  storeReadiness,
  type Bus,
  type Connection,
  type Logger,
  type MailTransport,
  type RateLimitRedis,
  type ServiceParts,
  type TokenVerifier,
  type Worker,
} from '@ruilplein/service-kit';
import { PAYMENT_RETURN_PATH } from '@ruilplein/contracts';
import { z } from 'zod';
import { COLLECTIONS, paymentCollections, type PaymentContext } from './context.ts';
import { expireEnded } from './memberships/lifecycle.ts';
import { composeDueMails } from './memberships/mails.ts';
import { membershipHandlers } from './memberships/routes.ts';
import { checkoutHandlers } from './providers/local/checkout.ts';
import { localProvider, type LocalProvider } from './providers/local/provider.ts';
import { mollieProvider } from './providers/mollie.ts';
import type { PaymentProvider } from './providers/provider.ts';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Variables of the payment service beyond the kit's own (README "Environment"; decisions.md "Payment"). */
export const paymentConfig = z.object({
  RUILPLEIN_MODE: z.enum(['local']).optional(),
  /** The browser's origin: the checkout returns there. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** local: the service's own checkout (Mollie's test mode); mollie: Mollie. Default: local in local mode, else mollie. */
  PAYMENT_PROVIDER: z.enum(['local', 'mollie']).optional(),
  MOLLIE_API_KEY: z.string().regex(/^(test|live)_\w+$/, 'expected test_… or live_…').optional(),
  /** Mollie's API, unless told otherwise (a stand-in in tests). */
  MOLLIE_API_URL: z.url().optional(),
  /** Where the provider calls; default PUBLIC_URL + /api/payment/webhook. */
  PAYMENT_WEBHOOK_URL: z.url().optional(),
  /** An open payment of the local checkout expires after this many minutes. */
  PAYMENT_OPEN_MINUTES: positive(15),
  /** How often ended memberships are expired and (local checkout) due renewals charged. */
  PAYMENT_SWEEP_SECONDS: positive(60),
  /** Days an active subscription's renewal may be late before Premium ends anyway. */
  PAYMENT_GRACE_DAYS: positive(3),
  // SMTP_URL and MAIL_FROM: the kit's, as for every service that sends mail (receipts, issue 27).
  ...mailConfigSchema.shape,
});
export type PaymentConfig = z.output<typeof paymentConfig>;

export interface PaymentDeps {
  db: Connection;
  bus: Bus;
  logger: Logger;
  verifyToken: TokenVerifier;
  redis: RateLimitRedis;
  config?: Partial<PaymentConfig>;
  /** Tests hand in a provider of their own making. */
  provider?: PaymentProvider;
  /** Tests hand mail to a transport of their own; the default follows SMTP_URL (local mode: /dev/mail). */
  mailTransport?: MailTransport;
  /** Tests answer addresses themselves; the default asks auth (`rpc.auth.member.contacts`). */
  contacts?: PaymentContext['contacts'];
}

/** The provider the configuration names: outside local mode only Mollie, with its key. */
export function chooseProvider(config: PaymentConfig, db: Connection, logger: Logger): PaymentProvider {
  const choice = config.PAYMENT_PROVIDER ?? (config.RUILPLEIN_MODE === 'local' ? 'local' : 'mollie');
  if (choice === 'local') {
    if (config.RUILPLEIN_MODE !== 'local') throw new ConfigError('config: PAYMENT_PROVIDER=local is for local mode only (RUILPLEIN_MODE=local)');
    return localProvider({ db, publicUrl: config.PUBLIC_URL.replace(/\/$/, ''), openMinutes: config.PAYMENT_OPEN_MINUTES, logger });
  }
  if (!config.MOLLIE_API_KEY) throw new ConfigError('config: MOLLIE_API_KEY is missing (required for PAYMENT_PROVIDER=mollie)');
  return mollieProvider({ apiKey: config.MOLLIE_API_KEY, ...(config.MOLLIE_API_URL && { apiEndpoint: config.MOLLIE_API_URL.replace(/\/?$/, '/') }) });
}

export async function createPaymentService(deps: PaymentDeps): Promise<ServiceParts & { ctx: PaymentContext }> {
  const { db, bus, logger } = deps;
  const config = paymentConfig.parse(deps.config ?? {});
  const provider = deps.provider ?? chooseProvider(config, db, logger);
  await ensureStream(bus, 'payment');
  const relay = startOutboxRelay({ bus, db, collections: [COLLECTIONS.memberships], logger });
  const publicUrl = config.PUBLIC_URL.replace(/\/$/, '');
  const transport = deps.mailTransport ?? mailTransportFor({ config, local: config.RUILPLEIN_MODE === 'local', db, service: 'payment' });
  const mail = startMailRelay({ db, collections: [COLLECTIONS.memberships], transport, logger });
  const ctx: PaymentContext = {
    ...paymentCollections(db),
    provider,
    relay,
    logger,
    redirectUrl: `${publicUrl}${PAYMENT_RETURN_PATH}`,
    webhookUrl: config.PAYMENT_WEBHOOK_URL ?? `${publicUrl}/api/payment/webhook`,
    graceMs: config.PAYMENT_GRACE_DAYS * 86_400_000,
    contacts: deps.contacts ?? askAuthForContacts(bus),
    mail,
    publicUrl,
  };
  const local = provider.name === 'local' ? (provider as LocalProvider) : undefined;
  const sweepMs = config.PAYMENT_SWEEP_SECONDS * 1000;
  const workers: Worker[] = [
    startPeriodic({ intervalMs: sweepMs, work: () => expireEnded(ctx), logger, what: 'expiring ended memberships' }),
    // Notes a kick did not turn into mail (auth was away, the process stopped): tried again.
    startPeriodic({ intervalMs: sweepMs, work: () => composeDueMails(ctx), logger, what: 'composing Premium mails' }),
  ];
  if (local) workers.push(local.startRenewals(sweepMs));
  const app = createApp({
    service: 'payment',
    logger,
    verifyToken: deps.verifyToken,
    redis: deps.redis,
    readiness: storeReadiness(deps),
    handlers: joinHandlers(membershipHandlers(ctx), checkoutHandlers(local)),
  });
  // The event relay last: tests flush it as the last worker.
  return { app, workers: [...workers, mail, relay], ctx };
}
