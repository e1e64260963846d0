import { eventRegistry, type Review } from '@ruilplein/contracts';
import { createEvent } from '@ruilplein/service-kit';
import type { WithOutbox } from '../outbox.ts';
import { partyOf, type MemberDoc } from '../members/model.ts';

/**
 * A review of the other party of a completed trade. Its id is `<offer>:<reviewer>`, written by an
 * insert-only upsert, so a second review of one trade by one party finds the first: once per party
 * per trade, without a secondary index. It carries its `trade.review.added` event; the reviewee's party document lists
 * it and holds the sums (parties.ts).
 */
export interface ReviewDoc extends WithOutbox {
  _id: string;
  offerId: number;
  reviewerId: string;
  revieweeId: string;
  rating: number;
  comment: string;
  createdAt: Date;
}

export const reviewId = (offerId: number, reviewerId: string) => `${offerId}:${reviewerId}`;

export const reviewAdded = (doc: ReviewDoc) =>
  createEvent(eventRegistry, 'trade.review.added', {
    id: doc._id,
    version: 1,
    offerId: doc.offerId,
    reviewerId: doc.reviewerId,
    revieweeId: doc.revieweeId,
    rating: doc.rating,
    at: new Date(doc.createdAt).toISOString(),
  });

/** The read shape (spec 2 §3), with the reviewer's name and picture as they are now. */
export function toReview(doc: ReviewDoc, members: ReadonlyMap<string, MemberDoc>): Review {
  return {
    id: doc._id,
    tradeOfferId: doc.offerId,
    rating: doc.rating,
    comment: doc.comment,
    reviewer: partyOf(doc.reviewerId, members.get(doc.reviewerId)),
    revieweeID: doc.revieweeId,
    createdAt: new Date(doc.createdAt).toISOString(),
  };
}
