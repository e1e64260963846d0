import { eventRegistry, FINAL_PAYMENT_STATUSES, PREMIUM_PRICE_CENTS, SUBSCRIPTION_INTERVAL, type EventEnvelope } from '@ruilplein/contracts';
import { createEvent, now, outboxFields } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { MembershipDoc, PaymentContext } from '../context.ts';
import { addMonth, dayOf } from '../providers/local/provider.ts';
import { composeDueMails, isMailed } from './mails.ts';
import type { ProviderPayment } from '../providers/provider.ts';

/** How many applied payment ids a membership remembers (a webhook is replayed within days, not years). */
const APPLIED_KEPT = 24;

type Subject =
  | 'payment.subscription.activated'
  | 'payment.subscription.renewed'
  | 'payment.subscription.renewal-failed'
  | 'payment.subscription.cancelled'
  | 'payment.subscription.expired';

interface Change {
  set: Partial<Omit<MembershipDoc, '_id' | 'version' | 'applied'>>;
  unset?: (keyof MembershipDoc)[];
  /** The payment this change applies: remembered, so it is never applied again. */
  applies?: string;
  event?: Subject;
}

export const emptyMembership = (userId: string): MembershipDoc => ({ _id: userId, version: 0, status: 'none', applied: [] });

/**
 * Changes a member's membership: one conditional update on the version it was read at, with its
 * event in the same write; retried when another change landed in between. `decide` answers null
 * for no change.
 */
export async function changeMembership(ctx: PaymentContext, userId: string, decide: (current: MembershipDoc) => Change | null): Promise<MembershipDoc> {
  for (;;) {
    const stored = await ctx.memberships.findOne({ _id: userId });
    const current = stored ?? emptyMembership(userId);
    const change = decide(current);
    if (!change) return current;
    const version = current.version + 1;
    const applied = change.applies ? [...current.applied.filter((id) => id !== change.applies), change.applies].slice(-APPLIED_KEPT) : current.applied;
    const next: MembershipDoc = { ...current, ...change.set, version, applied };
    for (const field of change.unset ?? []) delete next[field];
    const at = now();
    const events: EventEnvelope[] = change.event
      ? [createEvent(eventRegistry, change.event, { userId, version, paidUntil: change.event === 'payment.subscription.expired' ? null : (next.paidUntil?.toISOString() ?? null), at: at.toISOString() })]
      : [];
    // A receipt or a cancellation mail is noted with the change, and composed once auth gives the address (mails.ts).
    const mail = isMailed(change.event)
      ? { [`mailsDue.v${version}`]: { event: change.event, version, paidUntil: next.paidUntil ?? null, at }, mailsDuePending: true as const }
      : undefined;
    const update: mongo.UpdateFilter<MembershipDoc> = {
      $set: { ...change.set, version, applied, status: next.status, ...(events.length && outboxFields(...events)), ...mail } as mongo.MatchKeysAndValues<MembershipDoc>,
      ...(change.unset?.length && { $unset: Object.fromEntries(change.unset.map((f) => [f, ''])) }),
    };
    try {
      const done = stored
        ? await ctx.memberships.updateOne({ _id: userId, version: current.version }, update)
        : await ctx.memberships.updateOne({ _id: userId, version: { $exists: false } } as mongo.Filter<MembershipDoc>, update, { upsert: true });
      if (done.modifiedCount + done.upsertedCount === 1) {
        if (events.length) ctx.relay.kick(ctx.memberships.collectionName, userId);
        if (mail) void composeDueMails(ctx, userId).catch((err: unknown) => ctx.logger.warn({ err, userId }, 'composing a Premium mail failed: the sweep tries again'));
        return next;
      }
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  }
}

/**
 * The subscription on a paid first payment: made at the provider with a key that names the payment
 * (so the webhook and the return screen, racing, make one), starting one period after the payment;
 * Premium holds for that first period.
 */
export async function ensureSubscription(ctx: PaymentContext, userId: string): Promise<MembershipDoc> {
  const current = (await ctx.memberships.findOne({ _id: userId })) ?? emptyMembership(userId);
  if (!current.firstPaymentId || !current.firstPaidAt || !current.customerId) return current;
  if (current.subscriptionId && current.applied.includes(`sub:${current.firstPaymentId}`)) return current;
  const firstPaymentId = current.firstPaymentId;
  const periodStart = current.periodStart ?? current.firstPaidAt;
  const { id } = await ctx.provider.createSubscription({
    customerId: current.customerId,
    amountCents: PREMIUM_PRICE_CENTS,
    interval: SUBSCRIPTION_INTERVAL,
    startDate: dayOf(addMonth(periodStart)),
    description: 'Ruilplein Premium',
    webhookUrl: ctx.webhookUrl,
    userId,
    idempotencyKey: `sub-${userId}-${firstPaymentId}`,
  });
  let replaced: string | undefined;
  const after = await changeMembership(ctx, userId, (m) => {
    if (m.applied.includes(`sub:${firstPaymentId}`)) return null;
    // A subscription still renewing (a second first payment while Premium ran): this one replaces it.
    replaced = m.status === 'active' && m.subscriptionId && m.subscriptionId !== id ? m.subscriptionId : undefined;
    return { set: { subscriptionId: id, status: 'active', paidUntil: addMonth(periodStart) }, unset: ['renewalFailed'], applies: `sub:${firstPaymentId}`, event: 'payment.subscription.activated' };
  });
  // One subscription charges: the replaced one stops (its period is inside the new one's start).
  if (replaced) await ctx.provider.cancelSubscription(current.customerId, replaced).catch((err: unknown) => ctx.logger.warn({ err, userId, subscriptionId: replaced }, 'cancelling a replaced subscription failed'));
  return after;
}

/**
 * Brings one payment up to date from the provider (never from what a webhook's body says) and
 * applies its outcome once: a paid first payment makes the subscription, a paid renewal extends the
 * paid period by one, a failed renewal lets Premium end with the period. Unknown ids change nothing.
 */
export async function syncPayment(ctx: PaymentContext, id: string): Promise<ProviderPayment | null> {
  const known = await ctx.payments.findOne({ _id: id });
  const payment = await ctx.provider.getPayment(id);
  if (!payment) return null;
  const userId = known?.userId ?? payment.metadata?.userId ?? (await memberOfCustomer(ctx, payment.customerId));
  if (!userId) {
    ctx.logger.warn({ id }, 'a payment of no known member: ignored');
    return payment;
  }
  // A final status is never overwritten: an older answer that arrives late cannot undo it.
  await ctx.payments.updateOne({ _id: id, status: { $nin: [...FINAL_PAYMENT_STATUSES] } }, { $set: { status: payment.status } });
  if (!known) {
    await ctx.payments
      .insertOne({ _id: id, userId, kind: payment.sequenceType === 'first' ? 'first' : 'renewal', status: payment.status, amountCents: payment.amountCents, createdAt: payment.createdAt })
      .catch((err: unknown) => {
        if ((err as { code?: number }).code !== 11000) throw err;
      });
  }
  if (payment.sequenceType === 'first' && payment.status === 'paid') {
    await changeMembership(ctx, userId, (m) => {
      if (m.applied.includes(id)) return null;
      const paidAt = payment.paidAt ?? now();
      // Paid while Premium still ran (a checkout opened before; new ones are refused then): it buys
      // the month after the current end, never time already paid (probe finding 5).
      const runsOn = (m.status === 'active' || m.status === 'cancelled') && m.paidUntil && m.paidUntil.getTime() > paidAt.getTime() ? m.paidUntil : undefined;
      return { set: { firstPaymentId: id, firstPaidAt: paidAt, periodStart: runsOn ?? paidAt, customerId: payment.customerId }, applies: id };
    });
    await ensureSubscription(ctx, userId);
  } else if (payment.sequenceType === 'recurring' && payment.status === 'paid') {
    await changeMembership(ctx, userId, (m) =>
      m.applied.includes(id) || m.status !== 'active' || m.subscriptionId !== payment.subscriptionId
        ? null
        : { set: { paidUntil: addMonth(m.paidUntil ?? payment.paidAt ?? now()) }, unset: ['renewalFailed'], applies: id, event: 'payment.subscription.renewed' },
    );
  } else if (payment.sequenceType === 'recurring' && payment.status === 'failed') {
    // Announced with the failure (once: the payment is applied once) while Premium still runs, for
    // the member's notification: it ends with `paidUntil`.
    const m = await changeMembership(ctx, userId, (m) =>
      m.applied.includes(id) || m.subscriptionId !== payment.subscriptionId
        ? null
        : { set: { renewalFailed: true }, applies: id, ...(m.status === 'active' && { event: 'payment.subscription.renewal-failed' as const }) },
    );
    // No more attempts on this card: Premium ends with the period already paid.
    if (m.subscriptionId && m.customerId) await ctx.provider.cancelSubscription(m.customerId, m.subscriptionId);
  }
  return payment;
}

async function memberOfCustomer(ctx: PaymentContext, customerId: string): Promise<string | undefined> {
  if (!customerId) return undefined;
  return (await ctx.memberships.findOne({ customerId }, { projection: { _id: 1 } }))?._id;
}

/**
 * Ends the memberships whose paid period is over (on the platform's clock): cancelled ones and those
 * whose renewal failed at once, active ones whose renewal never came after a grace period.
 */
export async function expireEnded(ctx: PaymentContext, at = now()): Promise<number> {
  let ended = 0;
  for (const { _id } of await ctx.memberships.find({ status: { $in: ['active', 'cancelled'] }, paidUntil: { $lte: at } }, { projection: { _id: 1 } }).toArray()) {
    let ends = false;
    const m = await changeMembership(ctx, _id, (current) => {
      const end = current.paidUntil?.getTime() ?? 0;
      const late = current.status === 'cancelled' || current.renewalFailed ? end : end + ctx.graceMs;
      ends = (current.status === 'active' || current.status === 'cancelled') && late <= at.getTime();
      return ends ? { set: { status: 'expired' }, unset: ['paidUntil', 'renewalFailed'], event: 'payment.subscription.expired' } : null;
    });
    if (!ends) continue;
    ended++;
    if (m.subscriptionId && m.customerId) await ctx.provider.cancelSubscription(m.customerId, m.subscriptionId).catch((err: unknown) => ctx.logger.warn({ err, userId: _id }, 'cancelling an ended subscription failed'));
  }
  return ended;
}
