// The payment service over real HTTP on the run's stores (the kit's harness), with its local checkout
// (or a provider the test makes), its webhook pointing at itself, and every `payment.>` event it
// publishes collected.
import type { Connection, Mail } from '@ruilplein/service-kit';
import { send as kitSend, startServiceForTest, type ServiceTest } from '@ruilplein/service-kit/testing';
import { Types } from 'mongoose';
import { createPaymentService, type PaymentConfig } from '../src/app.ts';
import type { PaymentContext } from '../src/context.ts';
import type { PaymentProvider } from '../src/providers/provider.ts';

export { waitFor, type Json } from '@ruilplein/service-kit/testing';

export interface PaymentHarness extends Omit<ServiceTest<Awaited<ReturnType<typeof createPaymentService>>>, 'member'> {
  ctx: PaymentContext;
  /** A member with a token (payment keeps no member projection). */
  member(): Promise<{ id: string; token: string }>;
  /** Every mail the service handed over, in order; the address of member `id` is `addressOf(id)`. */
  mails: Mail[];
}

/** Where the test's stand-in for auth says member `id` gets mail. */
export const addressOf = (id: string) => `lid-${id}@example.nl`;

export async function startPayment(config: Partial<PaymentConfig> = {}, provider?: (db: Connection) => PaymentProvider): Promise<PaymentHarness> {
  const mails: Mail[] = [];
  const h = await startServiceForTest({
    service: 'payment',
    create: (deps) =>
      createPaymentService({
        ...deps,
        config: { RUILPLEIN_MODE: 'local', PUBLIC_URL: 'http://ruilplein.test', PAYMENT_SWEEP_SECONDS: 3600, ...config },
        ...(provider && { provider: provider(deps.db) }),
        contacts: async (ids) => new Map(ids.map((id) => [id, addressOf(id)])),
        mailTransport: { kind: 'test', send: async (_id, mail) => void mails.push(mail) },
      }),
  });
  // The provider calls the service itself (Mollie would call the public URL).
  h.service.ctx.webhookUrl = `${h.url}/api/payment/webhook`;
  return Object.assign(h, {
    ctx: h.service.ctx,
    mails,
    async member() {
      const id = new Types.ObjectId().toHexString();
      return { id, token: await h.issuer.sign({ sub: id }) };
    },
  });
}

/** Status, body and headers of a call; redirects are answers here (the checkout's 303s). */
export const send = (url: string, path: string, init: Parameters<typeof kitSend>[2] = {}) => kitSend(url, path, { redirect: 'manual', ...init });
