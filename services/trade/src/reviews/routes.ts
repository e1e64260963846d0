import { REVIEW_MESSAGES } from '@ruilplein/contracts';
import { badRequest, byIds, conflict, forbidden, notFound, outboxFields, unauthorized, type HandlerPart } from '@ruilplein/service-kit';
import { COLLECTIONS, type TradeContext } from '../context.ts';
import { giverOf, isParty, type OfferDoc } from '../offers/model.ts';
import { countReview, offerIdsOf, receivedReviewIds } from '../offers/parties.ts';
import { reviewAdded, reviewId, toReview, type ReviewDoc } from './model.ts';

/** The completed trades of `me` with `them`, oldest first. */
async function completedBetween(ctx: TradeContext, me: string, them: string): Promise<OfferDoc[]> {
  const docs = await byIds(ctx.offers, await offerIdsOf(ctx, me), { status: 'Completed' });
  return docs.filter((d) => isParty(d, me) && giverOf(d, me) === them).sort((a, b) => a._id - b._id);
}

/** Which of these trades `me` reviewed already. */
async function reviewedBy(ctx: TradeContext, me: string, offers: readonly OfferDoc[]): Promise<Set<number>> {
  return new Set((await byIds(ctx.reviews, offers.map((o) => reviewId(o._id, me)))).map((r) => r.offerId));
}

/**
 * The trade a review is about: the one named, which must be a completed trade of the caller with
 * the reviewee; or else (the seed's client names none) the oldest such trade not reviewed yet.
 */
async function tradeToReview(ctx: TradeContext, me: string, revieweeId: string, offerId: number | undefined): Promise<OfferDoc> {
  if (offerId !== undefined) {
    const doc = await ctx.offers.findOne({ _id: offerId });
    if (!doc || doc.status !== 'Completed' || !isParty(doc, me) || giverOf(doc, me) !== revieweeId) throw forbidden(REVIEW_MESSAGES.notTraded);
    return doc;
  }
  const completed = await completedBetween(ctx, me, revieweeId);
  if (!completed.length) throw forbidden(REVIEW_MESSAGES.notTraded);
  const reviewed = await reviewedBy(ctx, me, completed);
  const open = completed.find((o) => !reviewed.has(o._id));
  if (!open) throw conflict(REVIEW_MESSAGES.alreadyReviewed);
  return open;
}

export function reviewHandlers(ctx: TradeContext) {
  return {
    trade: {
      addReview: async ({ principal, body }) => {
        const now = ctx.clock();
        const me = principal.userId;
        if (body.revieweeID === me) throw badRequest(REVIEW_MESSAGES.self);
        const members = await ctx.members.byIds([me, body.revieweeID]);
        if (members.get(me)?.deleted) throw unauthorized();
        if (members.get(body.revieweeID)?.deleted) throw notFound(REVIEW_MESSAGES.revieweeGone);
        const offer = await tradeToReview(ctx, me, body.revieweeID, body.tradeOfferId);
        const doc: ReviewDoc = { _id: reviewId(offer._id, me), offerId: offer._id, reviewerId: me, revieweeId: body.revieweeID, rating: body.rating, comment: body.comment, createdAt: now };
        // Once per party per trade: the id is the offer and the reviewer, so a second one finds it there.
        const { _id, ...fields } = doc;
        let written;
        try {
          written = await ctx.reviews.updateOne({ _id }, { $setOnInsert: { ...fields, ...outboxFields(reviewAdded(doc)) } }, { upsert: true });
        } catch (err) {
          if ((err as { code?: number }).code === 11000) throw conflict(REVIEW_MESSAGES.alreadyReviewed);
          throw err;
        }
        if (written.upsertedCount !== 1) throw conflict(REVIEW_MESSAGES.alreadyReviewed);
        ctx.relay.kick(COLLECTIONS.reviews, doc._id);
        // At once, so the profile shows it; the consumer of trade.review.added makes it certain.
        await countReview(ctx, doc.revieweeId, doc._id, doc.rating, now, now).catch((err: unknown) =>
          ctx.logger.warn({ err, reviewId: doc._id }, 'review not counted yet; its event will'),
        );
        return toReview(doc, members);
      },
      hasReviewed: async ({ principal, params, query }) => {
        const me = principal.userId;
        if (query.tradeOfferId !== undefined) {
          const review = await ctx.reviews.findOne({ _id: reviewId(query.tradeOfferId, me) }, { projection: { revieweeId: 1 } });
          return { hasReviewed: review?.revieweeId === params.userId };
        }
        // Without a trade: whether every completed trade with them has the caller's review.
        const completed = await completedBetween(ctx, me, params.userId);
        if (!completed.length) return { hasReviewed: false };
        return { hasReviewed: (await reviewedBy(ctx, me, completed)).size === completed.length };
      },
      reviews: async ({ params }) => {
        const docs = (await byIds(ctx.reviews, await receivedReviewIds(ctx, params.id))).filter((r) => r.revieweeId === params.id);
        docs.sort((a, b) => +new Date(b.createdAt) - +new Date(a.createdAt) || (a._id < b._id ? 1 : -1));
        const members = await ctx.members.byIds(docs.map((r) => r.reviewerId));
        return docs.map((r) => toReview(r, members));
      },
    },
  } satisfies HandlerPart<'trade'>;
}
