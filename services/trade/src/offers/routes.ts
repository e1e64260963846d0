import { amsterdamDay, BLOCK_MESSAGES, COUNTER_ROUNDS_MAX, DEFAULT_CRATE, hasAdminRole, isPremiumAt, OFFER_DAILY_LIMIT, OFFER_MESSAGES, type InventoryItem, type OfferItem } from '@ruilplein/contracts';
import { badRequest, byIds, conflict, forbidden, HttpError, isAdmin as tokenIsAdmin, notFound, unauthorized, type HandlerPart, type Principal } from '@ruilplein/service-kit';
import type { TradeContext } from '../context.ts';
import type { MemberDoc } from '../members/model.ts';
import { changeOffer, checkStillAvailable, confirmOffer, createOffer, respondRule, settleCompleted } from './lifecycle.ts';
import { isChain, isParty, membersOf, offerEventPayload, toOffer, type OfferDoc } from './model.ts';
import { offerIdsOf, sentOn } from './parties.ts';
import { tradedAmong } from './traded.ts';

/** Offers as answered, the parties' names read once for all. */
async function answer(ctx: TradeContext, docs: readonly OfferDoc[]) {
  const members = await ctx.members.byIds(docs.flatMap(membersOf));
  return docs.map((d) => toOffer(d, members));
}

const memberOf = (ctx: TradeContext, id: string) => ctx.members.byId(id);

/** The item as the offer keeps it: the inventory's fields, nothing more. */
export const itemOf = (i: InventoryItem): OfferItem => ({
  listingID: i.listingID,
  userID: i.userID,
  title: i.title,
  description: i.description,
  imageUrl: i.imageUrl,
  thumbnailUrl: i.thumbnailUrl,
  isDefault: i.isDefault,
});

/**
 * The receiver's inventory as the sender may see it (a premium-only or fresh listing only for a
 * Premium sender); a receiver the listing service does not know (404) is gone.
 */
async function receiverInventory(ctx: TradeContext, receiverId: string, senderId: string): Promise<InventoryItem[]> {
  try {
    return await ctx.inventory(receiverId, senderId);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) throw notFound(OFFER_MESSAGES.receiverGone);
    throw err;
  }
}

/** A party, or an admin (by the members projection or auth's token) for moderation. */
async function mayRead(ctx: TradeContext, doc: OfferDoc, principal: Principal): Promise<boolean> {
  if (isParty(doc, principal.userId) || tokenIsAdmin(principal)) return true;
  return hasAdminRole(await memberOf(ctx, principal.userId));
}

/**
 * What an offer from `senderId` to `receiverId` on the receiver's `listing` holds, from the two
 * parties' inventories as they are now: 400 for a listing or item that is not (or no longer) theirs.
 */
async function offerContents(ctx: TradeContext, senderId: string, receiverId: string, listing: string, wanted: readonly { listingID: string; userID: string }[], now: Date): Promise<{ offeredOn: OfferItem; items: OfferItem[] }> {
  const [mine, theirs] = await Promise.all([ctx.inventory(senderId), receiverInventory(ctx, receiverId, senderId)]);
  if (mine.some((i) => !i.isDefault && i.listingID === listing)) throw badRequest(OFFER_MESSAGES.ownListing);
  const offeredOn = theirs.find((i) => !i.isDefault && i.listingID === listing);
  if (!offeredOn) throw badRequest(OFFER_MESSAGES.receiverNotOwner);
  // Each item from the inventory of the party it names (the crate included); a repeat counts once.
  const seen = new Set<string>();
  const items: OfferItem[] = [];
  for (const { listingID, userID } of wanted) {
    if (seen.has(`${userID}:${listingID}`)) continue;
    seen.add(`${userID}:${listingID}`);
    const inventory = userID === senderId ? mine : userID === receiverId ? theirs : undefined;
    if (!inventory) throw badRequest(OFFER_MESSAGES.itemNotOfParty);
    const item = inventory.find((i) => i.listingID === listingID && (listingID === DEFAULT_CRATE.listingID) === i.isDefault);
    if (!item) throw badRequest(OFFER_MESSAGES.itemUnavailable);
    items.push(itemOf(item));
  }
  // The listing the offer is made on is always traded (the seed's builder lets it be taken out).
  if (!items.some((i) => i.userID === receiverId && i.listingID === listing)) items.push(itemOf(offeredOn));
  // A completed trade took it, though the listing service may not know yet.
  const taken = await tradedAmong(ctx, [listing, ...items.filter((i) => !i.isDefault).map((i) => i.listingID)], now);
  if (taken.has(listing)) throw badRequest(OFFER_MESSAGES.receiverNotOwner);
  if (taken.size) throw badRequest(OFFER_MESSAGES.itemUnavailable);
  // Requested (the receiver's) first, as the offer screen lists them.
  items.sort((a, b) => Number(a.userID !== receiverId) - Number(b.userID !== receiverId));
  return { offeredOn: itemOf(offeredOn), items };
}

export function offerHandlers(ctx: TradeContext) {
  return {
    trade: {
      my: async ({ principal }) => {
        const ids = await offerIdsOf(ctx, principal.userId);
        const docs = (await byIds(ctx.offers, ids)).filter((d) => isParty(d, principal.userId)).sort((a, b) => b._id - a._id);
        return answer(ctx, docs);
      },
      count: async ({ principal, query }) => {
        const now = ctx.clock();
        const day = query.date ?? amsterdamDay(now);
        const [party, member] = await Promise.all([ctx.parties.findOne({ _id: principal.userId }, { projection: { offers: 1 } }), memberOf(ctx, principal.userId)]);
        return { count: await sentOn(ctx, party, day, now), date: day, limit: isPremiumAt(member, now) ? null : OFFER_DAILY_LIMIT };
      },
      create: async ({ principal, body }) => {
        const now = ctx.clock();
        const senderId = principal.userId;
        const receiverId = body.receiverID;
        if (receiverId === senderId) throw badRequest(OFFER_MESSAGES.ownListing);
        const [sender, receiver] = await Promise.all([memberOf(ctx, senderId), memberOf(ctx, receiverId)]);
        if (sender?.deleted) throw unauthorized();
        if (receiver?.deleted) throw notFound(OFFER_MESSAGES.receiverGone);
        // Either of the two blocked the other (issue 22): the same answer to both, naming no one.
        if (await ctx.blocks.blockedEitherWay(senderId, receiverId)) throw forbidden(BLOCK_MESSAGES.cannotTrade);
        // Premium and admins from the members projection (auth's events), never from the request.
        const limited = !isPremiumAt(sender, now);
        // A member at the limit hears so before anything else is asked; the reservation checks again.
        if (limited && (await sentOn(ctx, await ctx.parties.findOne({ _id: senderId }, { projection: { offers: 1 } }), amsterdamDay(now), now)) >= OFFER_DAILY_LIMIT) {
          throw forbidden(OFFER_MESSAGES.dailyLimit);
        }
        const { offeredOn, items } = await offerContents(ctx, senderId, receiverId, body.listingOfferedOnID, body.items, now);
        const doc = await createOffer(ctx, { senderId, receiverId, listingOfferedOn: offeredOn, items, message: body.message, limited }, now);
        return toOffer(doc, new Map([sender, receiver].filter((m): m is MemberDoc => !!m).map((m) => [m._id, m])));
      },
      respond: async ({ principal, params, query }) => {
        const now = ctx.clock();
        const rule = respondRule(principal.userId, query.status);
        const current = await ctx.offers.findOne({ _id: params.id });
        if (!current) throw notFound(OFFER_MESSAGES.notFound);
        rule(current);
        if (query.status === 'Accepted') await checkStillAvailable(ctx, current, now);
        const changed = await changeOffer(ctx, params.id, rule, now, principal.userId);
        if (!changed) throw notFound(OFFER_MESSAGES.notFound);
        return (await answer(ctx, [changed.after]))[0]!;
      },
      counter: async ({ principal, params, body }) => {
        const now = ctx.clock();
        const me = principal.userId;
        const original = await ctx.offers.findOne({ _id: params.id });
        if (!original) throw notFound(OFFER_MESSAGES.notFound);
        if (!isParty(original, me)) throw forbidden(OFFER_MESSAGES.notParty);
        if (isChain(original)) throw conflict(OFFER_MESSAGES.chainNoCounter);
        if (original.receiverId !== me) throw conflict(OFFER_MESSAGES.onlyReceiverCounters);
        if (original.status !== 'Pending') throw conflict(OFFER_MESSAGES.notPending);
        const round = (original.round ?? 1) + 1;
        if (round > COUNTER_ROUNDS_MAX) throw conflict(OFFER_MESSAGES.counterRoundsOver);
        const them = original.senderId;
        const [self, other] = await Promise.all([memberOf(ctx, me), memberOf(ctx, them)]);
        if (self?.deleted) throw unauthorized();
        if (other?.deleted) throw notFound(OFFER_MESSAGES.receiverGone);
        if (await ctx.blocks.blockedEitherWay(me, them)) throw forbidden(BLOCK_MESSAGES.cannotTrade);
        const listing = body.listingOfferedOnID ?? body.items.find((i) => i.userID === them && i.listingID !== DEFAULT_CRATE.listingID)?.listingID;
        if (!listing) throw badRequest(OFFER_MESSAGES.counterNeedsTheirItem);
        const { offeredOn, items } = await offerContents(ctx, me, them, listing, body.items, now);
        // An answer, not a new approach: it counts for no day (COUNTER_ROUNDS_MAX bounds the chain).
        const doc = await createOffer(ctx, { senderId: me, receiverId: them, listingOfferedOn: offeredOn, items, message: body.message, limited: false, counterOf: original._id, round }, now);
        // The original ends as Rejected, pointing at its counter; if it changed meanwhile (withdrawn),
        // the counter is withdrawn again and the caller hears why.
        const ended = await changeOffer(ctx, original._id, (current) => (current.status === 'Pending' ? { status: 'Rejected', counteredBy: doc._id } : undefined), now, me);
        if (ended?.after.counteredBy !== doc._id) {
          await changeOffer(ctx, doc._id, (current) => (current.status === 'Pending' ? { status: 'Cancelled' } : undefined), now, me);
          throw conflict(OFFER_MESSAGES.notPending);
        }
        return toOffer(doc, new Map([self, other].filter((m): m is MemberDoc => !!m).map((m) => [m._id, m])));
      },
      confirm: async ({ principal, params }) => {
        const now = ctx.clock();
        const changed = await confirmOffer(ctx, params.id, principal.userId, now);
        if (!changed) throw notFound(OFFER_MESSAGES.notFound);
        const { after } = changed;
        if (after.status === 'Completed') {
          // At once, for the answer's sake; the consumer of trade.offer.completed makes it certain.
          await settleCompleted(ctx, { _id: after._id, members: membersOf(after), listingIds: offerEventPayload(after).listingIds }, now).catch((err: unknown) =>
            ctx.logger.warn({ err, offerId: after._id }, 'completed trade not settled yet; its event will'),
          );
        }
        return (await answer(ctx, [after]))[0]!;
      },
      get: async ({ principal, params }) => {
        const doc = await ctx.offers.findOne({ _id: params.id });
        if (!doc) throw notFound(OFFER_MESSAGES.notFound);
        if (!(await mayRead(ctx, doc, principal))) throw forbidden(OFFER_MESSAGES.notParty);
        return (await answer(ctx, [doc]))[0]!;
      },
    },
  } satisfies HandlerPart<'trade'>;
}
