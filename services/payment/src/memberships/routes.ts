import { PAYMENT_MESSAGES, PREMIUM_PRICE_CENTS } from '@ruilplein/contracts';
import { conflict, HttpError, notFound, now, type HandlerPart } from '@ruilplein/service-kit';
import type { PaymentContext } from '../context.ts';
import { ProviderError } from '../providers/provider.ts';
import { changeMembership, emptyMembership, ensureSubscription, syncPayment } from './lifecycle.ts';

/** The provider being away is a 503 with a Dutch message, not a 500. */
async function atProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProviderError) throw new HttpError(503, PAYMENT_MESSAGES.providerUnavailable);
    throw err;
  }
}

/** Upgrade, status, subscription and cancel (spec 1 §7), and the provider's webhook. */
export function membershipHandlers(ctx: PaymentContext) {
  return {
    payment: {
      startUpgradeFirst: async ({ principal }) => {
        const userId = principal.userId.toLowerCase();
        const current = (await ctx.memberships.findOne({ _id: userId })) ?? emptyMembership(userId);
        if (current.status === 'active') throw conflict(PAYMENT_MESSAGES.alreadyPremium);
        // Cancelled but paid until later: a new payment would pay for time already paid (probe finding 5).
        if (current.status === 'cancelled' && current.paidUntil && current.paidUntil.getTime() > now().getTime()) throw conflict(PAYMENT_MESSAGES.premiumStillRuns);
        return atProvider(async () => {
          let customerId = current.customerId;
          if (!customerId) {
            // The key names the member: a retry (or a second tab) finds the same customer.
            const made = await ctx.provider.createCustomer({ name: `Ruilplein-lid ${userId}`, userId, idempotencyKey: `cust-${userId}` });
            await changeMembership(ctx, userId, (m) => (m.customerId ? null : { set: { customerId: made } }));
            customerId = ((await ctx.memberships.findOne({ _id: userId }))?.customerId ?? made) as string;
          }
          // The attempt number is stored before the provider is asked: its key survives a restart.
          const counted = await ctx.memberships.findOneAndUpdate({ _id: userId }, { $inc: { firstAttempts: 1 } }, { returnDocument: 'after' });
          const attempt = counted?.firstAttempts ?? 1;
          const payment = await ctx.provider.createFirstPayment({
            customerId,
            amountCents: PREMIUM_PRICE_CENTS,
            description: 'Ruilplein Premium (eerste maand)',
            redirectUrl: ctx.redirectUrl,
            webhookUrl: ctx.webhookUrl,
            userId,
            idempotencyKey: `first-${userId}-${attempt}`,
          });
          await ctx.payments.updateOne(
            { _id: payment.id },
            { $setOnInsert: { userId, kind: 'first', status: 'open', amountCents: PREMIUM_PRICE_CENTS, createdAt: now() } },
            { upsert: true },
          );
          await ctx.memberships.updateOne({ _id: userId }, { $set: { lastFirstPaymentId: payment.id } });
          return { paymentId: payment.id, checkoutUrl: payment.checkoutUrl };
        });
      },
      status: async ({ query }) => {
        // Only payments this service started or was told of: no questions to the provider for any id.
        if (!(await ctx.payments.findOne({ _id: query.id }, { projection: { _id: 1 } }))) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
        const payment = await atProvider(() => syncPayment(ctx, query.id));
        if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
        return { status: payment.status };
      },
      createSubscription: async ({ principal }) => {
        const userId = principal.userId.toLowerCase();
        let m = (await ctx.memberships.findOne({ _id: userId })) ?? emptyMembership(userId);
        // Back from the checkout before the webhook: ask the provider about the payment just made.
        if ((!m.firstPaymentId || m.status === 'expired') && m.lastFirstPaymentId) {
          await atProvider(() => syncPayment(ctx, m.lastFirstPaymentId!));
          m = (await ctx.memberships.findOne({ _id: userId })) ?? m;
        }
        if (!m.firstPaymentId || (m.status !== 'active' && m.status !== 'cancelled' && m.lastFirstPaymentId !== m.firstPaymentId)) throw conflict(PAYMENT_MESSAGES.noPaidFirstPayment);
        m = await atProvider(() => ensureSubscription(ctx, userId));
        if (!m.subscriptionId || !m.paidUntil || m.status === 'none' || m.status === 'expired') throw conflict(PAYMENT_MESSAGES.noPaidFirstPayment);
        return { subscriptionId: m.subscriptionId, status: m.status, subscriptionEndsAt: m.paidUntil.toISOString() };
      },
      mine: async ({ principal }) => {
        const m = await ctx.memberships.findOne({ _id: principal.userId.toLowerCase() });
        return { status: m?.status ?? 'none', subscriptionEndsAt: m?.paidUntil?.toISOString() ?? null };
      },
      cancelSubscription: async ({ principal }) => {
        const userId = principal.userId.toLowerCase();
        const m = await ctx.memberships.findOne({ _id: userId });
        if (!m || m.status !== 'active' || !m.subscriptionId || !m.customerId || !m.paidUntil) {
          if (m?.status === 'cancelled' && m.paidUntil) return { message: PAYMENT_MESSAGES.cancelled, subscriptionEndsAt: m.paidUntil.toISOString() };
          throw conflict(PAYMENT_MESSAGES.noSubscription);
        }
        await atProvider(() => ctx.provider.cancelSubscription(m.customerId!, m.subscriptionId!));
        const after = await changeMembership(ctx, userId, (c) => (c.status === 'active' ? { set: { status: 'cancelled' }, event: 'payment.subscription.cancelled' } : null));
        return { message: PAYMENT_MESSAGES.cancelled, subscriptionEndsAt: (after.paidUntil ?? m.paidUntil).toISOString() };
      },
      webhook: async ({ body }) => {
        // Answered at once, whatever the id: the provider only learns that we heard. What happened is
        // asked of the provider, never read from the body.
        if (/^tr_[A-Za-z0-9]{6,40}$/.test(body.id)) {
          void syncPayment(ctx, body.id).catch((err: unknown) => ctx.logger.warn({ err, id: body.id }, 'a webhook could not be processed; the next status call or webhook tries again'));
        }
        return { received: true };
      },
    },
  } satisfies HandlerPart<'payment'>;
}
