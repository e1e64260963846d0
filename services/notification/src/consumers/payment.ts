// Premium's course as notifications: active, a failed renewal, three days before a Premium that
// will not renew ends (a periodic scan of the subscriptions this service knows will end), ended.
import { eventRegistry } from '@ruilplein/contracts';
import { applyIfNewer, consume, now, type Bus, type Connection, type Logger, type Round, type Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { dateInDutch } from '../notifications/dates.ts';
import { memberKey } from '../notifications/keys.ts';
import { notify } from '../notifications/store.ts';

const LINK = '/dashboard/membership';
/** How long before the end of a Premium that will not renew the member is told. */
export const ENDING_NOTICE_MS = 3 * 86_400_000;

export function consumePayment(bus: Bus, db: Connection, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'notification-payment',
    registry: eventRegistry,
    subjects: ['payment.subscription.activated', 'payment.subscription.renewed', 'payment.subscription.cancelled', 'payment.subscription.renewal-failed', 'payment.subscription.expired'],
    db,
    logger,
    handler: async (event) => {
      const s = event.payload;
      const userId = memberKey(s.userId);
      const at = new Date(s.at);
      const source = `m${s.version}`;
      // Whether Premium will end by itself at paidUntil (the scan tells the member beforehand).
      const ends = event.type === 'payment.subscription.cancelled' || event.type === 'payment.subscription.renewal-failed';
      if (ends && s.paidUntil) await applyIfNewer(ctx.endings, userId, s.version, { paidUntil: new Date(s.paidUntil) });
      else await applyIfNewer(ctx.endings, userId, s.version, {}, { unset: ['paidUntil'] });
      switch (event.type) {
        case 'payment.subscription.activated':
          await notify(ctx, { userId, kind: 'premium-active', source, at, title: 'Je Premium is actief', body: s.paidUntil ? `Premium loopt tot ${dateInDutch(s.paidUntil)} en wordt elke maand verlengd.` : 'Veel plezier met Premium.', link: LINK });
          break;
        case 'payment.subscription.renewal-failed':
          await notify(ctx, {
            userId,
            kind: 'premium-renewal-failed',
            source,
            at,
            title: 'Verlenging van je Premium is mislukt',
            body: s.paidUntil ? `De betaling is niet gelukt. Premium loopt af op ${dateInDutch(s.paidUntil)}, tenzij je opnieuw betaalt.` : 'De betaling is niet gelukt.',
            link: LINK,
          });
          break;
        case 'payment.subscription.expired':
          await notify(ctx, { userId, kind: 'premium-ended', source, at, title: 'Je Premium is afgelopen', body: 'Je kunt altijd opnieuw Premium nemen.', link: LINK });
          break;
        default:
          break;
      }
    },
  });
}

/**
 * Tells the members whose Premium ends within ENDING_NOTICE_MS and will not renew; once per paid
 * period (the notification's source is the end, and `toldFor` records it). Reads the (small)
 * collection of ending subscriptions; each member's update by `_id`.
 */
export async function tellEndings(ctx: NotificationContext, round?: Round): Promise<number> {
  const at = now();
  const soon = new Date(at.getTime() + ENDING_NOTICE_MS);
  let told = 0;
  const ending = await ctx.endings.find({ paidUntil: { $exists: true } }).toArray();
  for (const doc of ending) {
    if (round?.stopped) break;
    const paidUntil = doc.paidUntil!;
    if (paidUntil <= at || paidUntil > soon || (doc.toldFor && +doc.toldFor === +paidUntil)) continue;
    await notify(ctx, {
      userId: doc._id,
      kind: 'premium-ending',
      source: `e${paidUntil.getTime().toString(36)}`,
      at: new Date(paidUntil.getTime() - ENDING_NOTICE_MS),
      title: 'Je Premium loopt over 3 dagen af',
      body: `Premium eindigt op ${dateInDutch(paidUntil)}. Neem opnieuw Premium om het te houden.`,
      link: LINK,
    });
    await ctx.endings.updateOne({ _id: doc._id, paidUntil }, { $set: { toldFor: paidUntil } });
    told++;
  }
  return told;
}
