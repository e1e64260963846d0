// trade's events as notifications: the other party hears of each step of an offer, the reviewee of
// a review. Each source names the offer's version, so a redelivery makes the same notification.
import { eventRegistry, type OfferEvent } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { nameOf, notify } from '../notifications/store.ts';

const offerLink = (offer: OfferEvent) => `/dashboard/tradeoffer/${offer.id}`;

export function consumeTrade(bus: Bus, db: Connection, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'notification-trade',
    registry: eventRegistry,
    subjects: ['trade.offer.created', 'trade.offer.accepted', 'trade.offer.rejected', 'trade.offer.cancelled', 'trade.offer.confirmed', 'trade.offer.completed', 'trade.review.added'],
    db,
    logger,
    handler: async (event) => {
      if (event.type === 'trade.review.added') {
        const review = event.payload;
        const name = await nameOf(ctx, review.reviewerId);
        await notify(ctx, {
          userId: review.revieweeId,
          kind: 'review-received',
          source: `r${review.id}`,
          at: new Date(review.at),
          title: `${name} heeft je een beoordeling gegeven`,
          body: `${review.rating} van de 5 sterren voor de ruil #${review.offerId}.`,
          link: '/dashboard/profile',
          cause: review.reviewerId,
        });
        return;
      }
      const offer = event.payload;
      const at = new Date(offer.at);
      const source = `o${offer.id}v${offer.version}`;
      const link = offerLink(offer);
      const tell = async (userId: string, from: string, kind: Parameters<typeof notify>[1]['kind'], title: (name: string) => string, body: string) =>
        notify(ctx, { userId, kind, source, at, title: title(await nameOf(ctx, from)), body, link, cause: from });
      switch (event.type) {
        case 'trade.offer.created':
          await tell(offer.receiverId, offer.senderId, 'offer-received', (n) => `Nieuw ruilaanbod van ${n}`, `Bekijk het aanbod voor ruil #${offer.id} en reageer.`);
          break;
        case 'trade.offer.accepted':
          await tell(offer.senderId, offer.receiverId, 'offer-accepted', (n) => `${n} heeft je ruilaanbod geaccepteerd`, 'Spreek af en bevestig de ruil als hij gedaan is.');
          break;
        case 'trade.offer.rejected':
          await tell(offer.senderId, offer.receiverId, 'offer-rejected', (n) => `${n} heeft je ruilaanbod afgewezen`, `Ruil #${offer.id} gaat niet door.`);
          break;
        case 'trade.offer.cancelled':
          // The event names no actor: a cancellation is the sender withdrawing (or the platform
          // closing the offer of a deleted or suspended sender); the receiver hears of it.
          await tell(offer.receiverId, offer.senderId, 'offer-withdrawn', (n) => `${n} heeft het ruilaanbod ingetrokken`, `Ruil #${offer.id} gaat niet door.`);
          break;
        case 'trade.offer.confirmed': {
          // One party confirmed: the other is asked to.
          const [by, other] = offer.senderConfirmed ? [offer.senderId, offer.receiverId] : [offer.receiverId, offer.senderId];
          await tell(other, by, 'offer-confirmed', (n) => `${n} heeft de ruil bevestigd`, 'Bevestig de ruil ook om hem af te ronden.');
          break;
        }
        case 'trade.offer.completed':
          for (const [userId, other] of [[offer.senderId, offer.receiverId], [offer.receiverId, offer.senderId]] as const) {
            await tell(userId, other, 'trade-completed', (n) => `Je ruil met ${n} is afgerond`, 'Laat een beoordeling achter voor de ander.');
          }
          break;
      }
    },
  });
}
