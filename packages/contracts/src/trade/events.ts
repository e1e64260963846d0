// What the trade service announces on NATS (`trade.>`): payload schemas of their own, each event
// about one aggregate with its `version` (see auth/events.ts).
import { z } from 'zod';
import { defineEvents } from '../events.ts';

export const OFFER_STATUSES = ['Pending', 'Accepted', 'Rejected', 'Cancelled', 'Completed'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/**
 * A trade offer as announced after each change: who the two parties are, which listings it holds
 * (the crate, which is no listing, left out) and where it stands. `version` counts its changes (1
 * when created), so a projection (chat's conversations, listing's interest) skips older states.
 */
export const OfferEventSchema = z.object({
  /** The offer id: a positive integer, as the seed's client shows it ('Ruilaanbieding #12'). */
  id: z.number().int().positive(),
  version: z.number().int().positive(),
  senderId: z.string(),
  receiverId: z.string(),
  /** The listing the offer was made on (the receiver's). */
  listingId: z.string(),
  /** Every listing in the offer, of both parties (the crate left out). */
  listingIds: z.array(z.string()),
  status: z.enum(OFFER_STATUSES),
  senderConfirmed: z.boolean(),
  receiverConfirmed: z.boolean(),
  createdAt: z.iso.datetime(),
  /** When this change happened. */
  at: z.iso.datetime(),
  /**
   * Who made this change: a party (sending, answering, withdrawing, confirming, blocking the other,
   * leaving); absent when the platform did (a listing traded elsewhere) and in events from before
   * the field existed. The reliability score counts cancellations by it.
   */
  actorId: z.string().optional(),
  /**
   * Schema version 2 (issue 24): every member of the offer, two or three, each with the listings
   * they give and receive and whether they accepted and confirmed. A three-party offer (a swap
   * chain) keeps the fields above for consumers of version 1: the proposer as sender, the member
   * who gives to the proposer as receiver. Absent in version 1 events: read them with
   * `offerParticipants`, which derives them.
   */
  participants: z.array(z.object({ userId: z.string(), gives: z.array(z.string()), receives: z.array(z.string()), accepted: z.boolean(), confirmed: z.boolean() })).min(2).max(3).optional(),
  /** The swap chain (the chain service's suggestion id) a three-party offer was proposed from. */
  chainId: z.string().optional(),
}).meta({ schemaVersion: 2 });
export type OfferEvent = z.infer<typeof OfferEventSchema>;
export type OfferEventParticipant = NonNullable<OfferEvent['participants']>[number];

/**
 * The members of an offer as its event announces them, for events of either version: version 2
 * carries them; of a version 1 event they are derived from the sender and receiver fields (the
 * receiver gives the listing the offer was made on, the sender the other listings: version 1 does
 * not say whose the rest are; the sender counts as accepted, the receiver once the offer was).
 * Every consumer of `trade.offer.*` reads the members through this.
 */
export function offerParticipants(offer: OfferEvent): OfferEventParticipant[] {
  if (offer.participants?.length) return offer.participants;
  const others = offer.listingIds.filter((id) => id !== offer.listingId);
  const receiverAccepted = offer.status === 'Accepted' || offer.status === 'Completed';
  return [
    { userId: offer.senderId, gives: others, receives: [offer.listingId], accepted: true, confirmed: offer.senderConfirmed },
    { userId: offer.receiverId, gives: [offer.listingId], receives: others, accepted: receiverAccepted, confirmed: offer.receiverConfirmed },
  ];
}

/** Every listing of an offer, of both versions: the one it was made on, `listingIds` and what each member gives. */
export const offerListingIds = (offer: OfferEvent): string[] => [...new Set([offer.listingId, ...offer.listingIds, ...offerParticipants(offer).flatMap((p) => p.gives)])];

/**
 * One member's trade statistics as they are now (public profile: totalTrades, averageRating,
 * totalReviewers): kept as sums, announced with the member's own counter version so an older
 * count never replaces a newer one.
 */
export const TradeStatsEventSchema = z.object({
  userId: z.string(),
  version: z.number().int().positive(),
  totalTrades: z.number().int().min(0),
  ratingSum: z.number().min(0),
  totalReviewers: z.number().int().min(0),
  /** What the reliability score is computed from (absent in events from before it existed). */
  reliability: z
    .object({
      answeredInTime: z.number().int().min(0),
      answeredLate: z.number().int().min(0),
      endedUnanswered: z.number().int().min(0),
      openSince: z.array(z.iso.datetime()),
      responseMinutes: z.array(z.number().int().min(0)),
      completed: z.number().int().min(0),
      cancelledBySelf: z.number().int().min(0),
      trades: z.number().int().min(0),
      sample: z.number().int().min(0),
    })
    .optional(),
});
export type TradeStatsEvent = z.infer<typeof TradeStatsEventSchema>;

/**
 * A review, written once and never changed: `version` is always 1 (events from before the field
 * existed read as 1), so a projection applies it like any other versioned state.
 */
export const ReviewAddedEventSchema = z.object({
  id: z.string(),
  version: z.number().int().positive().default(1),
  offerId: z.number().int().positive(),
  reviewerId: z.string(),
  revieweeId: z.string(),
  rating: z.number(),
  at: z.iso.datetime(),
});
export type ReviewAddedEvent = z.infer<typeof ReviewAddedEventSchema>;

export const tradeEvents = defineEvents('trade', {
  'trade.offer.created': OfferEventSchema,
  'trade.offer.accepted': OfferEventSchema,
  'trade.offer.rejected': OfferEventSchema,
  'trade.offer.cancelled': OfferEventSchema,
  /** One party confirmed an accepted offer (the other has not yet). */
  'trade.offer.confirmed': OfferEventSchema,
  'trade.offer.completed': OfferEventSchema,
  'trade.review.added': ReviewAddedEventSchema,
  'trade.member.counted': TradeStatsEventSchema,
});
