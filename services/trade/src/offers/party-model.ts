import type { OfferStatus, ReliabilityFacts } from '@ruilplein/contracts';
import type { WithOutbox } from '../outbox.ts';

/**
 * One member's side of trading, in one small document changed only conditionally on `version`:
 * - `offers`: every offer they are a party to (`o<number>`: when, and whether they sent it), so
 *   their offers are read by `_id`, and the daily limit is counted here: two creates at once
 *   cannot both take the second place of the day;
 * - their trade statistics (trades, sum and count of ratings received) and `received`, the reviews
 *   about them, announced with `trade.member.counted` (the document's version orders them);
 * - `counted`: what the totals already hold (`o<offer>` a trade, `r<review>` a review), so a trade
 *   or review applied twice (inline and by the consumer, or redelivered) counts once.
 * An offer is listed here before it is written: the list holds at least every offer, readers
 * check each one they fetch.
 */
export interface PartyDoc extends WithOutbox {
  /** The member's user id. */
  _id: string;
  version: number;
  offers?: Record<string, OfferEntry>;
  totalTrades?: number;
  ratingSum?: number;
  totalReviewers?: number;
  counted?: Record<string, Date>;
  /** Review id → when it was given. */
  received?: Record<string, Date>;
  /** What the reliability score is computed from (reliability/facts.ts), as last announced. */
  reliability?: ReliabilityFacts;
}

export interface OfferEntry {
  at: Date;
  /** Made by this member (counts for their daily limit unless a counter-offer). */
  sent: boolean;
  /** A counter-offer they made: an answer, not counted against their day. */
  counter?: boolean;
  // What the offer's events said, for the reliability score (set by reliability/facts.ts):
  /** The other party. */
  with?: string;
  /** A received offer's first answer (accepted or rejected). */
  answeredAt?: Date;
  acceptedAt?: Date;
  /** How it ended, when, and by whom ('' : the platform, e.g. a listing traded elsewhere). */
  ended?: OfferStatus;
  endedAt?: Date;
  endedBy?: string;
}
