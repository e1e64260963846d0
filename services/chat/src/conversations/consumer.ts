import { eventRegistry, offerParticipants, type OfferEvent } from '@ruilplein/contracts';
import { applyIfNewer, consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import { conversationKey, isOpenStatus, type ChatStore, type ConversationDoc } from './model.ts';

/** Every state an offer is announced in: the first opens its conversation, Cancelled and Rejected close it. */
export const OFFER_SUBJECTS = [
  'trade.offer.created',
  'trade.offer.accepted',
  'trade.offer.rejected',
  'trade.offer.cancelled',
  'trade.offer.confirmed',
  'trade.offer.completed',
] as const;

/**
 * Applies an offer's announced state to its conversation when it is newer than the one held (the
 * offer's `version`): a redelivered or late older event changes nothing, and `seq` (the messages)
 * is never touched. Answers whether it applied.
 */
export function applyOffer(store: ChatStore, offer: OfferEvent): Promise<boolean> {
  const set: Partial<ConversationDoc> = {
    senderId: offer.senderId.toLowerCase(),
    receiverId: offer.receiverId.toLowerCase(),
    // Of either event version: a version 1 event's are its sender and receiver.
    participantIds: offerParticipants(offer).map((p) => p.userId.toLowerCase()),
    status: offer.status,
    open: isOpenStatus(offer.status),
    updatedAt: new Date(offer.at),
  };
  return applyIfNewer(store.conversations, conversationKey(offer.id), offer.version, set, { setOnInsert: { offerId: offer.id, seq: 0, createdAt: new Date(offer.createdAt) } });
}

/**
 * The conversations projection: durable `chat-offers` on the trade stream. `changed` runs after a
 * state was applied (the hub tells the offer's room).
 */
export function consumeOffers(bus: Bus, db: Connection, store: ChatStore, logger: Logger, changed: (offer: OfferEvent) => void): Promise<Worker> {
  return consume(bus, {
    durable: 'chat-offers',
    registry: eventRegistry,
    subjects: OFFER_SUBJECTS,
    db,
    logger,
    handler: async (event) => {
      if (await applyOffer(store, event.payload)) changed(event.payload);
    },
  });
}
