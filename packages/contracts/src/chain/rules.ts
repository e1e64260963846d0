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
