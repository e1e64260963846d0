import { amsterdamDay, BLOCK_MESSAGES, CHAIN_OFFER_MESSAGE, isPremiumAt, OFFER_DAILY_LIMIT, OFFER_MESSAGES, tradeQueries, type ChainLink, type InventoryItem } from '@ruilplein/contracts';
import { badRequest, conflict, forbidden, HttpError, notFound, serveQuery, unauthorized, type Bus, type Logger, type Worker } from '@ruilplein/service-kit';
import type { z } from 'zod';
import type { ChainHoldDoc, TradeContext } from '../context.ts';
import { createOffer, nextOfferId } from './lifecycle.ts';
import { OPEN, type ParticipantDoc } from './model.ts';
import { sentOn } from './parties.ts';
import { itemOf } from './routes.ts';
import { tradedAmong } from './traded.ts';

/** A hold whose offer is not written this long after it was taken was left by a request that died. */
const HOLD_IN_FLIGHT_MS = 30_000;

type ProposeRequest = z.output<typeof tradeQueries.proposeChain.request>;
type ProposeAnswer = z.input<typeof tradeQueries.proposeChain.response>;

/** Whether a hold still keeps its listing: its offer is open, or its request may still be writing it. */
async function stillHolds(ctx: Pick<TradeContext, 'offers'>, hold: ChainHoldDoc, now: Date): Promise<boolean> {
  const offer = await ctx.offers.findOne({ _id: hold.offerId }, { projection: { status: 1 } });
  if (offer) return OPEN.includes(offer.status);
  return now.getTime() - new Date(hold.at).getTime() < HOLD_IN_FLIGHT_MS;
}

/**
 * A listing is in at most one open chain offer: one document per listing (`_id` the listing),
 * taken by an insert-only upsert, so of two proposals racing for a listing one gets it and the
 * other is refused (409). A hold whose offer ended (or was never written) is taken over; holds
 * are never deleted when an offer ends, only found stale. What this call took is given back on a refusal.
 */
async function holdListings(ctx: Pick<TradeContext, 'offers' | 'chainHolds'>, offerId: number, listingIds: readonly string[], now: Date): Promise<void> {
  const held: string[] = [];
  for (const _id of listingIds) {
    for (let attempt = 0; ; attempt++) {
      try {
        await ctx.chainHolds.updateOne({ _id }, { $setOnInsert: { offerId, at: now } }, { upsert: true });
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
      }
      const hold = await ctx.chainHolds.findOne({ _id });
      if (hold?.offerId === offerId) {
        held.push(_id);
        break;
      }
      if (attempt < 3 && (!hold || !(await stillHolds(ctx, hold, now)))) {
        if (hold) await ctx.chainHolds.updateOne({ _id, offerId: hold.offerId, at: hold.at }, { $set: { offerId, at: now } });
        continue;
      }
      await releaseHolds(ctx, offerId, held);
      throw conflict(OFFER_MESSAGES.chainListingTaken);
    }
  }
}

async function releaseHolds(ctx: Pick<TradeContext, 'chainHolds'>, offerId: number, listingIds: readonly string[]): Promise<void> {
  for (const _id of listingIds) await ctx.chainHolds.deleteOne({ _id, offerId });
}

/** The links form a ring of distinct members and listings (each receives what the next gives), the proposer among them. */
function checkRing(links: readonly ChainLink[], proposerId: string): void {
  const n = links.length;
  if (new Set(links.map((l) => l.userId)).size !== n || new Set(links.map((l) => l.gives)).size !== n) throw badRequest(OFFER_MESSAGES.chainNotRing);
  if (links.some((l, i) => l.receives !== links[(i + 1) % n]!.gives)) throw badRequest(OFFER_MESSAGES.chainNotRing);
  if (!links.some((l) => l.userId === proposerId)) throw badRequest(OFFER_MESSAGES.chainProposerNotMember);
}

/** The giver's inventory as its receiver may see it; a member the listing service does not know is gone. */
async function visibleInventory(ctx: TradeContext, giverId: string, receiverId: string): Promise<InventoryItem[]> {
  try {
    return await ctx.inventory(giverId, receiverId);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) throw notFound(OFFER_MESSAGES.receiverGone);
    throw err;
  }
}

/**
 * `rpc.trade.chain.propose`: a three-party offer, Pending, the proposer counted as accepted. The
 * refusals of a normal offer (a member gone or blocked, the daily limit, a listing that is not
 * (or no longer) its giver's or not visible to its receiver), and 409 for a listing already in
 * another open chain offer. The proposal counts as one offer of the proposer's day.
 */
export async function proposeChain(ctx: TradeContext, request: ProposeRequest): Promise<number> {
  const now = ctx.clock();
  const { links, proposerId } = request;
  checkRing(links, proposerId);
  const ids = links.map((l) => l.userId);
  const members = await ctx.members.byIds(ids);
  if (members.get(proposerId)?.deleted) throw unauthorized();
  if (ids.some((id) => members.get(id)?.deleted)) throw notFound(OFFER_MESSAGES.receiverGone);
  for (const [i, a] of ids.entries()) {
    for (const b of ids.slice(i + 1)) if (await ctx.blocks.blockedEitherWay(a, b)) throw forbidden(BLOCK_MESSAGES.cannotTrade);
  }
  const limited = !isPremiumAt(members.get(proposerId), now);
  if (limited && (await sentOn(ctx, await ctx.parties.findOne({ _id: proposerId }, { projection: { offers: 1 } }), amsterdamDay(now), now)) >= OFFER_DAILY_LIMIT) {
    throw forbidden(OFFER_MESSAGES.dailyLimit);
  }
  // Each listing from its giver's inventory as its receiver (the previous member of the ring) may see it.
  const n = links.length;
  const items = await Promise.all(
    links.map(async (link, i) => {
      const receiver = links[(i + n - 1) % n]!.userId;
      const item = (await visibleInventory(ctx, link.userId, receiver)).find((it) => !it.isDefault && it.listingID === link.gives);
      if (!item) throw badRequest(OFFER_MESSAGES.itemUnavailable);
      return itemOf(item);
    }),
  );
  const listingIds = links.map((l) => l.gives);
  if ((await tradedAmong(ctx, listingIds, now)).size) throw badRequest(OFFER_MESSAGES.itemUnavailable);
  const at = links.findIndex((l) => l.userId === proposerId);
  const giver = links[(at + 1) % n]!;
  const participants: ParticipantDoc[] = links.map((l) => ({ userId: l.userId, gives: [l.gives], receives: [l.receives], accepted: l.userId === proposerId, confirmed: false }));
  const id = await nextOfferId(ctx);
  await holdListings(ctx, id, listingIds, now);
  try {
    const doc = await createOffer(
      ctx,
      {
        senderId: proposerId,
        receiverId: giver.userId,
        listingOfferedOn: items[(at + 1) % n]!,
        // The proposer's counterpart's item first, as a two-party offer lists the requested first.
        items: [...items.slice((at + 1) % n), ...items.slice(0, (at + 1) % n)],
        message: CHAIN_OFFER_MESSAGE,
        limited,
        participants,
        chainId: request.chainId,
      },
      now,
      id,
    );
    return doc._id;
  } catch (err) {
    await releaseHolds(ctx, id, listingIds);
    throw err;
  }
}

/** Answers `rpc.trade.chain.propose`; a refusal (4xx) is answered with its status and Dutch message, not thrown. */
export function serveChainProposals(bus: Bus, ctx: TradeContext, logger: Logger): Worker {
  return serveQuery(
    bus,
    'trade',
    tradeQueries.proposeChain,
    async (request): Promise<ProposeAnswer> => {
      try {
        return { ok: true, offerId: await proposeChain(ctx, request) };
      } catch (err) {
        if (err instanceof HttpError && err.status >= 400 && err.status < 500) return { ok: false, status: err.status, message: err.message };
        throw err;
      }
    },
    logger,
  );
}
