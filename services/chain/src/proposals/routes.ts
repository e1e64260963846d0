import { CHAIN_MESSAGES, tradeQueries } from '@ruilplein/contracts';
import { HttpError, nowMs, requestQuery, type Bus, type HandlerPart } from '@ruilplein/service-kit';
import type { ChainSuggestion } from '@ruilplein/chains';
import type { ChainContext } from '../context.ts';
import { settle } from '../graph/state.ts';

/**
 * The trade query's links from the engine's ring. The engine lists each member giving to the next
 * (participants[i].receives is participants[i-1].gives); the query wants each link to receive from
 * the next (links[i].receives is links[i+1].gives): the same ring walked backwards.
 */
export function linksOf(chain: Pick<ChainSuggestion, 'participants'>) {
  return [...chain.participants].reverse().map((p) => ({ userId: p.userId, gives: p.gives.listingId, receives: p.receives.listingId }));
}

export function proposalHandlers(ctx: ChainContext, bus: Bus) {
  return {
    chain: {
      propose: async ({ params, principal }) => {
        const caller = principal.userId.toLowerCase();
        const now = nowMs();
        const chain = ctx.engine.held(params.id, now);
        if (!chain || !chain.participants.some((p) => p.userId === caller)) throw new HttpError(404, CHAIN_MESSAGES.notFound);
        if (chain.participants.length === 2) throw new HttpError(400, CHAIN_MESSAGES.twoMembers);
        // Synchronous: of two proposals racing for a listing, the second finds it reserved.
        if (chain.reserved || settle(ctx, (engine) => engine.reserve(chain.id, now)) !== true) throw new HttpError(409, CHAIN_MESSAGES.taken);
        await ctx.proposals.replaceOne({ _id: chain.id }, { at: new Date(now) }, { upsert: true });
        let answer;
        try {
          answer = await requestQuery(bus, tradeQueries.proposeChain, { chainId: chain.id, proposerId: caller, links: linksOf(chain) }, 5000);
        } catch (err) {
          // No answer: released; should trade have made the offer anyway, its event reserves again.
          await ctx.proposals.deleteOne({ _id: chain.id, offerId: { $exists: false } });
          settle(ctx, (engine) => engine.release(chain.id));
          throw err;
        }
        if (!answer.ok) {
          await ctx.proposals.deleteOne({ _id: chain.id, offerId: { $exists: false } });
          settle(ctx, (engine) => engine.release(chain.id));
          throw new HttpError(answer.status, answer.message);
        }
        await ctx.proposals.updateOne({ _id: chain.id }, { $set: { offerId: answer.offerId }, $unset: { ended: '' } });
        return { offerId: answer.offerId };
      },
    },
  } satisfies HandlerPart<'chain'>;
}
