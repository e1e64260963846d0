// The matcher's state from the service's own store: every change is first written to the store
// (applied only when newer), then the engine takes the stored state of what changed, so a
// redelivered or late event changes nothing and a restart rebuilds the same engine (`loadEngine`).
import { ChainEngine } from '@ruilplein/chains';
import { nowMs } from '@ruilplein/service-kit';
import type { ChainContext, ListingDoc, Replay, WishDoc } from '../context.ts';

const idOf = (id: string) => id.toLowerCase();
const placeOf = (doc: { latitude?: number; longitude?: number }) =>
  doc.latitude !== undefined && doc.longitude !== undefined ? { latitude: doc.latitude, longitude: doc.longitude } : null;

function feedListing(engine: ChainEngine, doc: ListingDoc): void {
  if (doc.gone) engine.removeListing(doc._id);
  else if (doc.ownerId)
    engine.upsertListing(doc._id, {
      ownerId: idOf(doc.ownerId),
      place: placeOf(doc),
      active: doc.active === true,
      premiumOnly: doc.premiumOnly === true,
      createdAt: doc.createdAt?.getTime() ?? 0,
    });
}

function feedWish(engine: ChainEngine, doc: WishDoc): void {
  if (doc.on) engine.addWish(idOf(doc.userId), doc.listingId);
  else engine.removeWish(idOf(doc.userId), doc.listingId);
}

/** Into the engine now, and again into the one a rebuild is making (it may have read the store before this change). */
export function settle(ctx: ChainContext, replay: Replay): unknown {
  ctx.replays?.push(replay);
  return replay(ctx.engine);
}

/** The stored listing, into the engine. */
export async function settleListing(ctx: ChainContext, id: string): Promise<void> {
  const doc = await ctx.listings.findOne({ _id: id });
  if (doc) settle(ctx, (engine) => feedListing(engine, doc));
}

/** The stored wish, into the engine. */
export async function settleWish(ctx: ChainContext, userId: string, listingId: string): Promise<void> {
  const doc = await ctx.wishes.findOne({ _id: `${idOf(userId)}:${listingId}` });
  if (doc) settle(ctx, (engine) => feedWish(engine, doc));
}

type MemberDoc = Awaited<ReturnType<ChainContext['members']['byId']>> & {};
const feedMember = (engine: ChainEngine, m: MemberDoc) =>
  engine.upsertMember(m._id, { place: m.deleted ? null : placeOf(m), premium: !m.deleted && (m.roles ?? []).includes('Premium') });

/** The stored member, into the engine: no place (or deleted) keeps them out of every chain. */
export async function settleMember(ctx: ChainContext, id: string): Promise<void> {
  const m = await ctx.members.byId(id);
  if (m) settle(ctx, (engine) => feedMember(engine, m));
}

/** The stored relation of a pair, into the engine (either way blocked: no chain holds both). */
export async function settleBlock(ctx: ChainContext, a: string, b: string): Promise<void> {
  const blocked = await ctx.blocks.blockedEitherWay(a, b);
  settle(ctx, (engine) => (blocked ? engine.block(idOf(a), idOf(b)) : engine.unblock(idOf(a), idOf(b))));
}

/** A new engine from the store (members, listings, wishes, blocks; the searches once at the end), with the open proposals reserved. */
async function engineFromStore(ctx: ChainContext): Promise<{ engine: ChainEngine; figures: { members: number; listings: number; wishes: number; chains: number; reserved: number } }> {
  const engine = new ChainEngine();
  const [members, listings, wishes, blocks] = await Promise.all([
    ctx.members.collection.find({}).toArray(),
    ctx.listings.find({}).toArray(),
    ctx.wishes.find({ on: true }).toArray(),
    ctx.blocks.collection.find({ deleted: { $ne: true } }).toArray(),
  ]);
  const chains = engine.load(() => {
    for (const m of members) feedMember(engine, m);
    for (const l of listings) feedListing(engine, l);
    for (const w of wishes) feedWish(engine, w);
    // Each pair once, from the blocker's side.
    for (const b of blocks) for (const [other, side] of Object.entries(b.out ?? {})) if (side.on) engine.block(b._id, other);
  });
  let reserved = 0;
  const now = nowMs();
  for (const p of await ctx.proposals.find({ ended: { $ne: true } }).toArray()) if (engine.reserve(p._id, now)) reserved++;
  return { engine, figures: { members: members.length, listings: listings.length, wishes: wishes.length, chains, reserved } };
}

/** Start-up, before the consumers run: the engine from the store. Answers the figures for the log. */
export async function loadEngine(ctx: ChainContext) {
  const started = performance.now();
  const { engine, figures } = await engineFromStore(ctx);
  ctx.engine = engine;
  return { ...figures, ms: Math.round(performance.now() - started) };
}

/**
 * Rebuilds the engine from the store while the consumers run, and swaps it in: heals what the
 * store has and this engine missed (events another pod handled during a rollout, two events of one
 * member settled out of order). Changes settled meanwhile are replayed into the new engine first.
 */
export async function resync(ctx: ChainContext) {
  if (ctx.replays) return null;
  const started = performance.now();
  ctx.replays = [];
  try {
    const { engine, figures } = await engineFromStore(ctx);
    // Replays are synchronous: none can slip in between the last one and the swap.
    for (const replay of ctx.replays) replay(engine);
    ctx.engine = engine;
    return { ...figures, ms: Math.round(performance.now() - started) };
  } finally {
    ctx.replays = undefined;
  }
}
