import { BLOCK_MAX, BLOCK_MESSAGES, eventRegistry } from '@ruilplein/contracts';
import { badRequest, collection, conflict, createEvent, now as platformNow, outboxFields, type Connection, type IndexSpec } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';

/** One blocked member as the blocker's document keeps it; an ended block stays with its version. */
interface BlockEntry {
  since: Date;
  /** The pair's version: one higher with every change, carried by its `auth.block.*` event. */
  version: number;
  active: boolean;
}

/**
 * The members one member blocked, in one document under the blocker's id (read and changed by
 * `_id` only; at most BLOCK_MAX active, so it stays small). `blocked` lists the active ones, for
 * the count and for "who blocked this member" (an account's deletion; indexed on MongoDB). Every
 * change matches the `rev` it read: one conditional write, its event in the same document's outbox.
 */
export interface BlockListDoc {
  _id: string;
  entries: Record<string, BlockEntry>;
  blocked: string[];
  rev: number;
}

export const blockCollection = (db: Connection) => collection<BlockListDoc>(db, 'blocks');
export type BlockCollection = mongo.Collection<BlockListDoc>;

export const BLOCK_INDEXES: readonly IndexSpec[] = [{ key: { blocked: 1 } }];

/** Lost races with the member's own other tab before giving up. */
const ATTEMPTS = 5;

/**
 * Blocks (`active: true`) or unblocks one member. Answers whether it changed anything: blocking
 * one already blocked, or unblocking one who is not, announces nothing. Throws the Dutch 400 past
 * BLOCK_MAX.
 */
export async function setBlock(blocks: BlockCollection, blockerId: string, blockedId: string, active: boolean, now = platformNow()): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const doc = await blocks.findOne({ _id: blockerId });
    const entry = doc?.entries[blockedId];
    if ((entry?.active ?? false) === active) return false;
    if (active && (doc?.blocked.length ?? 0) >= BLOCK_MAX) throw badRequest(BLOCK_MESSAGES.tooMany);
    const version = (entry?.version ?? 0) + 1;
    const event = createEvent(eventRegistry, active ? 'auth.block.added' : 'auth.block.removed', { blockerId, blockedId, version, at: now.toISOString() });
    const next: BlockEntry = { since: active ? now : (entry?.since ?? now), version, active };
    if (!doc) {
      // The first block: only an insert (another tab's insert just now makes this one a retry).
      const created = await blocks
        .updateOne({ _id: blockerId }, { $setOnInsert: { entries: { [blockedId]: next }, blocked: [blockedId], rev: 1, ...outboxFields(event) } }, { upsert: true })
        .catch((err: unknown) => {
          if ((err as { code?: number }).code === 11000) return undefined;
          throw err;
        });
      if (created?.upsertedCount === 1) return true;
      continue;
    }
    const result = await blocks.updateOne(
      { _id: blockerId, rev: doc.rev },
      {
        $set: { [`entries.${blockedId}`]: next, ...outboxFields(event) },
        ...(active ? { $push: { blocked: blockedId } } : { $pull: { blocked: blockedId } }),
        $inc: { rev: 1 },
      },
    );
    if (result.modifiedCount === 1) return true;
  }
  throw conflict(BLOCK_MESSAGES.changedMeanwhile);
}

/**
 * An account is deleted: its own list goes, and it leaves every list it is on (no events: the
 * followers drop its relations on `auth.user.deleted`). Safe to repeat.
 */
export async function removeBlocksOf(blocks: BlockCollection, userId: string): Promise<void> {
  await blocks.deleteOne({ _id: userId });
  const holders = await blocks.find({ blocked: userId }, { projection: { _id: 1 } }).toArray();
  for (const { _id } of holders) {
    await blocks.updateOne({ _id }, { $unset: { [`entries.${userId}`]: '' }, $pull: { blocked: userId }, $inc: { rev: 1 } });
  }
}
