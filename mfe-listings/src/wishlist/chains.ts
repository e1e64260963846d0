// The swap chains beside wishlisted listings (issue 24): which of the member's chains a listing
// changes hands in, and with whom.
import { otherMembers, type chainApi, type ResponseOf } from '@ruilplein/contracts/browser';

export type Chain = ResponseOf<typeof chainApi.suggestions>[number];

/** The first (best) of the member's chains in which `listingId` is given by anyone. */
export const chainHolding = (chains: readonly Chain[], listingId: string) => chains.find((c) => c.participants.some((p) => p.gives.listingId === listingId));

/** 'In een ruilketen met Bram en Cas': the other members in ring order from the member. */
export const chainNote = (chain: Chain, me: string | undefined): string => `In een ruilketen met ${otherMembers(chain, me)}`;
