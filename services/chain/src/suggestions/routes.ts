import { byIds, nowMs, type HandlerPart } from '@ruilplein/service-kit';
import type { ChainSuggestion } from '@ruilplein/chains';
import type { ChainSuggestionAnswer } from '@ruilplein/contracts';
import type { ChainContext } from '../context.ts';

/** Chains per answer: the shortest, nearest and freshest first (the engine's order). */
export const MAX_SUGGESTIONS = 20;

/** The engine's chains with the titles and first names of the service's own projections. */
export async function describeChains(ctx: ChainContext, chains: ChainSuggestion[]): Promise<ChainSuggestionAnswer[]> {
  const listingIds = chains.flatMap((c) => c.participants.map((p) => p.gives.listingId));
  const [listings, members] = await Promise.all([byIds(ctx.listings, listingIds), ctx.members.byIds(chains.flatMap((c) => c.participants.map((p) => p.userId)))]);
  const titles = new Map(listings.map((l) => [l._id, l.title ?? '']));
  const listing = (listingId: string) => ({ listingId, title: titles.get(listingId) ?? '' });
  return chains.map((c) => ({
    id: c.id,
    participants: c.participants.map((p) => ({ userId: p.userId, firstName: members.get(p.userId)?.firstName ?? '', gives: listing(p.gives.listingId), receives: listing(p.receives.listingId) })),
    maxDistanceKm: c.maxDistanceKm,
  }));
}

export function suggestionHandlers(ctx: ChainContext) {
  return {
    chain: {
      suggestions: ({ principal }) => describeChains(ctx, ctx.engine.suggestionsFor(principal.userId.toLowerCase(), nowMs()).slice(0, MAX_SUGGESTIONS)),
    },
  } satisfies HandlerPart<'chain'>;
}
