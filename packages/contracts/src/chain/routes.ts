// The chain service's HTTP routes (issue 24): the caller's swap chains, and proposing one as a
// three-party trade offer. The caller is always the token's member.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../routes.ts';
import { chainRefs } from './refs.ts';
import { CHAIN_ID_PATTERN, CHAIN_MESSAGES } from './rules.ts';

const ChainListingSchema = z.object({ listingId: z.string(), title: z.string() }).meta({ id: 'ChainListing' });

export const ChainMemberSchema = z
  .object({
    userId: z.string(),
    firstName: z.string(),
    /** What this member gives to the next one in the ring. */
    gives: ChainListingSchema,
    /** What this member receives from the one before them. */
    receives: ChainListingSchema,
  })
  .meta({ id: 'ChainMember' });

export const ChainSuggestionSchema = z
  .object({
    id: z.string(),
    /** In ring order: each gives to the next, the last to the first. Two members: a plain offer. */
    participants: z.array(ChainMemberSchema).min(2).max(3),
    /** The farthest any receiver lives from what they receive, km with one decimal. */
    maxDistanceKm: z.number(),
  })
  .meta({ id: 'ChainSuggestion' });
export type ChainSuggestionAnswer = z.infer<typeof ChainSuggestionSchema>;

const ChainIdParamsSchema = z.object({ id: z.string().regex(CHAIN_ID_PATTERN, CHAIN_MESSAGES.invalidChain) });

export const chainRoutes = {
  suggestions: defineRoute({
    ...chainRefs.suggestions,
    summary: 'De ruilketens van de ingelogde gebruiker: kortste, dichtstbij en nieuwste eerst',
    response: z.array(ChainSuggestionSchema),
  }),
  propose: defineRoute({
    ...chainRefs.propose,
    summary: 'Een ruilketen van drie voorstellen: een ruilaanbod (Pending) voor alle drie, de voorsteller telt als akkoord',
    params: ChainIdParamsSchema,
    response: z.object({ offerId: z.number().int().positive() }),
  }),
} satisfies Record<keyof typeof chainRefs, RouteDef>;
