import { OFFER_MESSAGES } from '@ruilplein/contracts';
import { byIds, conflict } from '@ruilplein/service-kit';
import type { TradeContext, TradedDoc } from '../context.ts';

/**
 * How long a claim whose offer did not complete still counts: the completing request writes the
 * offer right after its claims, so an older claim of an offer that is not Completed was left by a
 * request that died in between, and gives way.
 */
const CLAIM_IN_FLIGHT_MS = 30_000;

type Ctx = Pick<TradeContext, 'traded' | 'offers'>;

/** Whether a claim still holds its listing: its offer completed, or its request may still be writing. */
async function holds(ctx: Ctx, claim: TradedDoc, now: Date): Promise<boolean> {
  if (now.getTime() - new Date(claim.at).getTime() < CLAIM_IN_FLIGHT_MS) return true;
  return (await ctx.offers.findOne({ _id: claim.offerId }, { projection: { status: 1 } }))?.status === 'Completed';
}

/** Of `listingIds`, those traded (or being traded) by an offer other than `except`. */
export async function tradedAmong(ctx: Ctx, listingIds: Iterable<string>, now: Date, except?: number): Promise<Set<string>> {
  const ids = [...new Set(listingIds)];
  const taken = new Set<string>();
  if (!ids.length) return taken;
  for (const claim of await byIds(ctx.traded, ids)) {
    if (claim.offerId !== except && (await holds(ctx, claim, now))) taken.add(claim._id);
  }
  return taken;
}

/**
 * Claims every listing of `offerId` before its completion is written (one document per listing,
 * `_id` the listing: of two offers completing at once, one gets each listing). A listing another
 * offer holds: what this call claimed is given back, and 409.
 */
export async function claimListings(ctx: Ctx, offerId: number, listingIds: Iterable<string>, now: Date): Promise<void> {
  const claimed: string[] = [];
  for (const _id of new Set(listingIds)) {
    for (let attempt = 0; ; attempt++) {
      try {
        await ctx.traded.updateOne({ _id }, { $setOnInsert: { offerId, at: now } }, { upsert: true });
      } catch (err) {
        // Two upserts of one id at once: the other inserted it; read who.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
      const claim = await ctx.traded.findOne({ _id });
      if (claim?.offerId === offerId) {
        // Renewed, so a retry of this completion is not taken for a dead one.
        await ctx.traded.updateOne({ _id, offerId }, { $set: { at: now } });
        claimed.push(_id);
        break;
      }
      if (attempt < 3) {
        if (!claim) continue;
        if (!(await holds(ctx, claim, now))) {
          // A claim left by a completion that never happened: take it over, if nobody did meanwhile.
          await ctx.traded.updateOne({ _id, offerId: claim.offerId, at: claim.at }, { $set: { offerId, at: now } });
          continue;
        }
      }
      await releaseListings(ctx, offerId, claimed);
      throw conflict(OFFER_MESSAGES.itemsGone);
    }
  }
}

/** Gives back the claims of `offerId` (its completion was not written). */
export async function releaseListings(ctx: Pick<TradeContext, 'traded'>, offerId: number, listingIds: Iterable<string>): Promise<void> {
  for (const _id of new Set(listingIds)) await ctx.traded.deleteOne({ _id, offerId });
}
