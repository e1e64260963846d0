// What a simulated member does next, and how long they look at the screen before it: seeded, so a
// run with the same --seed makes the same choices (the platform's answers still differ).

/** A number in [0, 1), like Math.random. */
export type Rng = () => number;

/** mulberry32: small, fast and good enough to pick actions with. */
export function seededRandom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each member its own stream, from the run's seed and the member's number. */
export const memberSeed = (seed: number, member: number): number => (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(member + 1, 0xc2b2ae35)) >>> 0;

/**
 * Picks one of the actions `available` says can be done now, in proportion to its weight; none
 * when nothing is available (or every available weight is 0).
 */
export function pickWeighted<A extends string>(weights: Readonly<Record<A, number>>, available: (action: A) => boolean, rng: Rng): A | undefined {
  const open = (Object.keys(weights) as A[]).filter((a) => weights[a] > 0 && available(a));
  const total = open.reduce((sum, a) => sum + weights[a], 0);
  if (total <= 0) return undefined;
  let at = rng() * total;
  for (const a of open) {
    at -= weights[a];
    if (at < 0) return a;
  }
  return open.at(-1);
}

/** One of `list`, evenly; undefined for an empty list. */
export const pickOne = <T>(list: readonly T[], rng: Rng): T | undefined => list[Math.floor(rng() * list.length)];

/**
 * A think time around `meanMs`: exponential (most pauses short, a few long, as people read),
 * kept between a fifth and four times the mean so no member stalls or hammers.
 */
export function thinkTime(meanMs: number, rng: Rng): number {
  const drawn = -Math.log(1 - rng()) * meanMs;
  return Math.min(4 * meanMs, Math.max(meanMs / 5, drawn));
}

/**
 * The proportions of a member's visits (issue 25: search with and without keywords, wishlist, list
 * items with photos, offers, chat, and the answers to offers in the inbox). Browsing dominates, as
 * on any marketplace; writes are rarer. An action is only picked when it can be done (a listing to
 * view needs a search first, an offer a listing of someone else, a chat an open offer).
 */
export const ACTION_WEIGHTS = {
  browse: 20,
  keywords: 16,
  view: 14,
  wishlistAdd: 6,
  wishlistList: 4,
  list: 4,
  myListings: 3,
  offer: 10,
  inbox: 9,
  chat: 8,
} as const satisfies Record<string, number>;
export type Action = keyof typeof ACTION_WEIGHTS;
