// trade's events as notifications: the other party hears of each step of an offer (every other
// member of a three-party one), the reviewee of a review. Each source names the offer's version, so a redelivery makes the same notification.
import { eventRegistry, offerParticipants, type OfferEvent, type OfferEventParticipant } from '@ruilplein/contracts';
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
      const members = offerParticipants(offer);
      if (members.length > 2) {
        await tellChain(ctx, event.type, offer, members);
        return;
      }
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

type OfferSubject = 'trade.offer.created' | 'trade.offer.accepted' | 'trade.offer.rejected' | 'trade.offer.cancelled' | 'trade.offer.confirmed' | 'trade.offer.completed';

/**
 * A three-party offer (a swap chain, issue 24): every member but the one who acted hears of each
 * step; a chain the platform ended (a listing traded elsewhere) is told to all three.
 */
async function tellChain(ctx: NotificationContext, type: OfferSubject, offer: OfferEvent, members: OfferEventParticipant[]): Promise<void> {
  const at = new Date(offer.at);
  const source = `o${offer.id}v${offer.version}`;
  const link = offerLink(offer);
  const actor = offer.actorId ?? (type === 'trade.offer.created' ? offer.senderId : undefined);
  const name = actor ? await nameOf(ctx, actor) : '';
  // A completion is everyone's news, the last confirmation's member's too (as for two parties).
  const others = type === 'trade.offer.completed' ? members : members.filter((m) => m.userId !== actor);
  const tell = (userId: string, kind: Parameters<typeof notify>[1]['kind'], title: string, body: string, cause = actor) =>
    notify(ctx, { userId, kind, source, at, title, body, link, ...(cause && { cause }) });
  for (const { userId, confirmed } of others) {
    switch (type) {
      case 'trade.offer.created':
        await tell(userId, 'offer-received', `Nieuw ruilketen-voorstel van ${name}`, `Jullie ruilen met z’n drieën: bekijk ruilketen #${offer.id} en reageer.`);
        break;
      case 'trade.offer.accepted':
        await tell(
          userId,
          'offer-accepted',
          `${name} heeft de ruilketen geaccepteerd`,
          offer.status === 'Accepted' ? 'Iedereen doet mee: spreek af en bevestig de ruil als hij gedaan is.' : `Ruilketen #${offer.id} wacht nog op de anderen.`,
        );
        break;
      case 'trade.offer.rejected':
        await tell(userId, 'offer-rejected', `${name} heeft de ruilketen afgewezen`, `Ruilketen #${offer.id} gaat niet door.`);
        break;
      case 'trade.offer.cancelled':
        if (actor) await tell(userId, 'offer-withdrawn', `${name} heeft de ruilketen beëindigd`, `Ruilketen #${offer.id} gaat niet door.`);
        else await tell(userId, 'offer-withdrawn', 'Ruilketen gaat niet door', `Een listing uit ruilketen #${offer.id} is niet meer beschikbaar.`);
        break;
      case 'trade.offer.confirmed':
        if (!confirmed) await tell(userId, 'offer-confirmed', `${name} heeft de ruil bevestigd`, 'Bevestig de ruil ook om hem af te ronden.');
        break;
      case 'trade.offer.completed': {
        // Each hears from the member who gave to them: the one they may review.
        const at = members.findIndex((m) => m.userId === userId);
        const giver = members[(at + 1) % members.length]!.userId;
        await tell(userId, 'trade-completed', `Je ruilketen #${offer.id} is afgerond`, `Laat een beoordeling achter voor ${await nameOf(ctx, giver)}.`, giver);
        break;
      }
    }
  }
}
