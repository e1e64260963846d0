// Request/reply queries the trade service answers on `rpc.trade.<entity>.<verb>`.
import { z } from 'zod';
import { defineQueries, defineQuery } from '../routes.ts';

/** Members in a swap chain: a ring of three (two-member cycles are proposed as plain offers). */
export const CHAIN_MEMBERS = 3;

/** One member of a proposed ring: the listing they give and the one they receive (each one listing). */
export const ChainLinkSchema = z.object({ userId: z.string().min(1).max(60), gives: z.string().min(1).max(60), receives: z.string().min(1).max(60) });
export type ChainLink = z.infer<typeof ChainLinkSchema>;

export const tradeQueries = defineQueries('trade', {
  /**
   * The chain service's "make this chain an offer": a three-party trade offer, Pending, with the
   * proposer (`proposerId`, one of the links, from the caller's token at the chain service)
   * counted as accepted. Links are in ring order: each one's `receives` is the next one's `gives`.
   * Trade checks every listing against its owner's inventory as for any offer; a refusal is
   * answered, not thrown, with the HTTP status and Dutch message the chain route passes on.
   */
  proposeChain: defineQuery({
    subject: 'rpc.trade.chain.propose',
    request: z.object({ chainId: z.string().min(1).max(200), proposerId: z.string().min(1).max(60), links: z.array(ChainLinkSchema).length(CHAIN_MEMBERS) }),
    response: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), offerId: z.number().int().positive() }),
      z.object({ ok: z.literal(false), status: z.number().int().min(400).max(499), message: z.string() }),
    ]),
  }),
});
