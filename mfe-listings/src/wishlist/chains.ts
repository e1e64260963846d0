// The swap chains beside wishlisted listings (issue 24): which of the member's chains a listing
// changes hands in, and with whom.
import type { chainApi, ResponseOf } from '@ruilplein/contracts/browser';

export type Chain = ResponseOf<typeof chainApi.suggestions>[number];

/** The first (best) of the member's chains in which `listingId` is given by anyone. */
export const chainHolding = (chains: readonly Chain[], listingId: string) => chains.find((c) => c.participants.some((p) => p.gives.listingId === listingId));

/** 'In een ruilketen met Bram en Cas': the other members in ring order from the member (the answer may start anywhere). */
export function chainNote(chain: Chain, me: string | undefined): string {
  const n = chain.participants.length;
  const start = Math.max(0, chain.participants.findIndex((p) => p.userId === me));
  const names = chain.participants
    .map((_, i) => chain.participants[(start + i) % n]!)
    .filter((p) => p.userId !== me)
    .map((p) => p.firstName);
  const others = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} en ${names[names.length - 1]}`;
  return `In een ruilketen met ${others}`;
}
