// Swap chains (issue 24): the Dutch messages both the chain service and the browser use.

/** A chain's id: 24 lowercase hex digits (a hash of its listings in ring order). */
export const CHAIN_ID_PATTERN = /^[0-9a-f]{24}$/;

export const CHAIN_MESSAGES = {
  invalidChain: 'Ongeldige ruilketen.',
  /** The chain no longer holds (a listing went, a wish was withdrawn, a member blocked another) or is not the caller's. */
  notFound: 'Deze ruilketen bestaat niet meer.',
  /** Another proposal holds one of its listings (two proposals racing: the second loses). */
  taken: 'Een van deze listings zit al in een ander ruilketen-voorstel.',
  /** A two-member cycle is a plain offer: the UI opens the offer builder instead. */
  twoMembers: 'Een ruil tussen twee leden doe je met een gewoon ruilaanbod.',
} as const;

/** A chain's members as a page shows them: in ring order, each giving to the next, the last to the first. */
interface Ring<M extends { userId: string; firstName: string }> {
  participants: readonly M[];
}

/** The members in ring order starting with `me` (an answer may start anywhere); as is without them. */
export function ringFrom<M extends { userId: string; firstName: string }>(chain: Ring<M>, me: string | undefined): M[] {
  const n = chain.participants.length;
  const start = Math.max(0, chain.participants.findIndex((p) => p.userId === me));
  return chain.participants.map((_, i) => chain.participants[(start + i) % n]!);
}

/** The ring once round from the member: 'Jij → Bram → Cas → jij' (without them: from the first member). */
export function ringLine(chain: Ring<{ userId: string; firstName: string }>, me: string | undefined): string {
  const ring = ringFrom(chain, me);
  const name = (p: { userId: string; firstName: string }, last = false) => (p.userId === me ? (last ? 'jij' : 'Jij') : p.firstName);
  return [...ring.map((p) => name(p)), name(ring[0]!, true)].join(' → ');
}

/** The other members' first names in ring order from the member, as Dutch prose: 'Bram', 'Bram en Cas'. */
export function otherMembers(chain: Ring<{ userId: string; firstName: string }>, me: string | undefined): string {
  const names = ringFrom(chain, me)
    .filter((p) => p.userId !== me)
    .map((p) => p.firstName);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} en ${names[names.length - 1]}`;
}
