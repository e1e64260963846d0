import { hashId } from './slots.ts';

/** Signs of interest count this long, then not at all. */
export const INTEREST_WINDOW_MS = 14 * 24 * 3600_000;
/** An interest counts half after this, a quarter after twice this… */
export const INTEREST_HALF_LIFE_MS = 3 * 24 * 3600_000;
/** A listing's own newness: worth one fresh wishlist entry when placed, half of that after this. */
export const RECENCY_HALF_LIFE_MS = 2 * 24 * 3600_000;

/**
 * What a sign of interest weighs. A trade offer says more than a heart on a wishlist: each
 * `trade.offer.created` records the listing the offer was made on with kind 'offer' (the listing
 * service's search/sync.ts, INTEREST_SOURCES).
 */
export const INTEREST_WEIGHTS = { wishlist: 1, offer: 3 } as const;
export type InterestKind = keyof typeof INTEREST_WEIGHTS;

interface Sign {
  at: number;
  /** Hash of the member and kind: one member counts once per kind (the latest time). */
  who: number;
  weight: number;
}

/**
 * Recent interest per listing (by its row in the index), for 'Trending in je buurt'. Sparse: most
 * listings have none, so a map from row to its few signs; a removed listing's signs are forgotten.
 */
export class InterestBook {
  private signs = new Map<number, Sign[]>();

  record(listingId: number, memberId: string, kind: InterestKind, at: number, now: number): void {
    if (!(at > now - INTEREST_WINDOW_MS)) return;
    const who = hashId(`${kind}:${memberId}`);
    let list = this.signs.get(listingId);
    if (!list) this.signs.set(listingId, (list = []));
    const same = list.find((s) => s.who === who);
    if (same) same.at = Math.max(same.at, at);
    else list.push({ at, who, weight: INTEREST_WEIGHTS[kind] });
  }

  forget(listingId: number): void {
    this.signs.delete(listingId);
  }

  /** Σ weight · ½^(age / half-life) over the signs of the last 14 days. */
  interest(listingId: number, now: number): number {
    const list = this.signs.get(listingId);
    if (!list) return 0;
    let sum = 0;
    for (const s of list) {
      const age = Math.max(0, now - s.at);
      if (age < INTEREST_WINDOW_MS) sum += s.weight * 0.5 ** (age / INTEREST_HALF_LIFE_MS);
    }
    return sum;
  }

  /** Drops signs older than the window (run now and then). */
  prune(now: number): void {
    for (const [id, list] of this.signs) {
      const kept = list.filter((s) => s.at > now - INTEREST_WINDOW_MS);
      if (kept.length) this.signs.set(id, kept);
      else this.signs.delete(id);
    }
  }

  get size(): number {
    return this.signs.size;
  }
}

/** The trending score of a listing: its recent interest plus a bonus for being new. */
export const trendingScore = (interest: number, ageMs: number) => interest + 0.5 ** (Math.max(0, ageMs) / RECENCY_HALF_LIFE_MS);
